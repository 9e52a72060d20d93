/* Keccak-f[1600] on eight states at once: each AVX-512 register holds one lane (x, y) of all
 * eight states, so a round is the scalar round with every operation done eightfold. θ's
 * five-way XORs and χ are three-input boolean functions (vpternlogq), ρ is vprolq, π is only
 * a renaming of registers. Structure and constants as in Codecs/KeccakF1600.swift (FIPS 202
 * §3.2); the results are checked against it (Keccak256BatchTests). */
#include "CKeccak.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>

static const uint64_t round_constants[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL,
    0x000000000000808BULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008AULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
    0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

typedef __m512i lane8;
#define XOR3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
/* χ: a ^ (~b & c) */
#define CHI(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0xD2)
/* θ's column parity applied, then ρ's rotation. */
#define THETA_RHO(a, d, n) _mm512_rol_epi64(_mm512_xor_si512(a, d), n)

__attribute__((target("avx512f"))) static void keccak_f1600_x8(lane8 s[25]) {
    lane8 a00 = s[0], a01 = s[1], a02 = s[2], a03 = s[3], a04 = s[4];
    lane8 a05 = s[5], a06 = s[6], a07 = s[7], a08 = s[8], a09 = s[9];
    lane8 a10 = s[10], a11 = s[11], a12 = s[12], a13 = s[13], a14 = s[14];
    lane8 a15 = s[15], a16 = s[16], a17 = s[17], a18 = s[18], a19 = s[19];
    lane8 a20 = s[20], a21 = s[21], a22 = s[22], a23 = s[23], a24 = s[24];
    _Pragma("clang loop unroll_count(2)") for (int round = 0; round < 24; round++) {
        lane8 c0 = XOR3(XOR3(a00, a05, a10), a15, a20);
        lane8 c1 = XOR3(XOR3(a01, a06, a11), a16, a21);
        lane8 c2 = XOR3(XOR3(a02, a07, a12), a17, a22);
        lane8 c3 = XOR3(XOR3(a03, a08, a13), a18, a23);
        lane8 c4 = XOR3(XOR3(a04, a09, a14), a19, a24);
        lane8 d0 = _mm512_xor_si512(c4, _mm512_rol_epi64(c1, 1));
        lane8 d1 = _mm512_xor_si512(c0, _mm512_rol_epi64(c2, 1));
        lane8 d2 = _mm512_xor_si512(c1, _mm512_rol_epi64(c3, 1));
        lane8 d3 = _mm512_xor_si512(c2, _mm512_rol_epi64(c4, 1));
        lane8 d4 = _mm512_xor_si512(c3, _mm512_rol_epi64(c0, 1));
        /* Lane (x, y) goes to (y, 2x + 3y mod 5), rotated by its ρ offset. */
        lane8 b00 = _mm512_xor_si512(a00, d0);
        lane8 b10 = THETA_RHO(a01, d1, 1);
        lane8 b20 = THETA_RHO(a02, d2, 62);
        lane8 b05 = THETA_RHO(a03, d3, 28);
        lane8 b15 = THETA_RHO(a04, d4, 27);
        lane8 b16 = THETA_RHO(a05, d0, 36);
        lane8 b01 = THETA_RHO(a06, d1, 44);
        lane8 b11 = THETA_RHO(a07, d2, 6);
        lane8 b21 = THETA_RHO(a08, d3, 55);
        lane8 b06 = THETA_RHO(a09, d4, 20);
        lane8 b07 = THETA_RHO(a10, d0, 3);
        lane8 b17 = THETA_RHO(a11, d1, 10);
        lane8 b02 = THETA_RHO(a12, d2, 43);
        lane8 b12 = THETA_RHO(a13, d3, 25);
        lane8 b22 = THETA_RHO(a14, d4, 39);
        lane8 b23 = THETA_RHO(a15, d0, 41);
        lane8 b08 = THETA_RHO(a16, d1, 45);
        lane8 b18 = THETA_RHO(a17, d2, 15);
        lane8 b03 = THETA_RHO(a18, d3, 21);
        lane8 b13 = THETA_RHO(a19, d4, 8);
        lane8 b14 = THETA_RHO(a20, d0, 18);
        lane8 b24 = THETA_RHO(a21, d1, 2);
        lane8 b09 = THETA_RHO(a22, d2, 61);
        lane8 b19 = THETA_RHO(a23, d3, 56);
        lane8 b04 = THETA_RHO(a24, d4, 14);
        a00 = CHI(b00, b01, b02), a01 = CHI(b01, b02, b03), a02 = CHI(b02, b03, b04);
        a03 = CHI(b03, b04, b00), a04 = CHI(b04, b00, b01);
        a05 = CHI(b05, b06, b07), a06 = CHI(b06, b07, b08), a07 = CHI(b07, b08, b09);
        a08 = CHI(b08, b09, b05), a09 = CHI(b09, b05, b06);
        a10 = CHI(b10, b11, b12), a11 = CHI(b11, b12, b13), a12 = CHI(b12, b13, b14);
        a13 = CHI(b13, b14, b10), a14 = CHI(b14, b10, b11);
        a15 = CHI(b15, b16, b17), a16 = CHI(b16, b17, b18), a17 = CHI(b17, b18, b19);
        a18 = CHI(b18, b19, b15), a19 = CHI(b19, b15, b16);
        a20 = CHI(b20, b21, b22), a21 = CHI(b21, b22, b23), a22 = CHI(b22, b23, b24);
        a23 = CHI(b23, b24, b20), a24 = CHI(b24, b20, b21);
        a00 = _mm512_xor_si512(a00, _mm512_set1_epi64((long long)round_constants[round]));
    }
    s[0] = a00, s[1] = a01, s[2] = a02, s[3] = a03;
}

int tender_keccak256_lanes(void) { return __builtin_cpu_supports("avx512f") ? 8 : 0; }

__attribute__((target("avx512f"))) void tender_keccak256_x8(
    const uint8_t *const messages[], const size_t lengths[], size_t count, uint8_t *digests) {
    /* Word i of message j at [i][j]: each row loads as one register. The rate's 17 lanes
     * only: the capacity's 8 (state[17] to state[24]) start as zeros. */
    _Alignas(64) uint64_t rows[17][8];
    memset(rows, 0, sizeof rows);
    for (size_t j = 0; j < count && j < 8; j++) {
        const uint8_t *message = messages[j];
        size_t length = lengths[j] < 135 ? lengths[j] : 135;
        size_t words = length / 8;
        for (size_t i = 0; i < words; i++) memcpy(&rows[i][j], message + 8 * i, 8);
        /* The last partial word, then Keccak's pad10*1 with the 0x01 domain bit (not
         * SHA-3's 0x06); x86-64 is little-endian, as Keccak's lanes are. */
        uint64_t tail = 0;
        memcpy(&tail, message + 8 * words, length % 8);
        rows[words][j] = tail ^ ((uint64_t)0x01 << (8 * (length % 8)));
        rows[16][j] ^= 0x8000000000000000ULL;
    }
    lane8 state[25];
    for (int i = 0; i < 17; i++) state[i] = _mm512_load_si512(rows[i]);
    for (int i = 17; i < 25; i++) state[i] = _mm512_setzero_si512();
    keccak_f1600_x8(state);
    for (int i = 0; i < 4; i++) _mm512_store_si512(rows[i], state[i]);
    for (size_t j = 0; j < count && j < 8; j++)
        for (int i = 0; i < 4; i++) memcpy(digests + 32 * j + 8 * i, &rows[i][j], 8);
}

#else

int tender_keccak256_lanes(void) { return 0; }

void tender_keccak256_x8(
    const uint8_t *const messages[], const size_t lengths[], size_t count, uint8_t *digests) {
    (void)messages, (void)lengths, (void)count, (void)digests;
}

#endif
