#ifndef TENDER_CKECCAK_H
#define TENDER_CKECCAK_H
#include <stddef.h>
#include <stdint.h>

/* Keccak-256 of up to eight one-block messages at once, on AVX-512 (Docs/BENCHMARKS.md,
 * "Verification"). Codecs.Keccak256Batch is its only caller; elsewhere, and on CPUs without
 * AVX-512, Codecs' scalar Keccak256 hashes one message at a time. */

/* The most messages one call hashes: 8 when this CPU runs the AVX-512 kernel, 0 when it has
 * no such kernel (another architecture, or an x86-64 CPU without AVX-512F). */
int tender_keccak256_lanes(void);

/* Hashes `count` (1 to 8) messages, message j being `lengths[j]` (at most 135) bytes at
 * `messages[j]`, into `digests + 32 j`. Only when tender_keccak256_lanes() is 8. */
void tender_keccak256_x8(
    const uint8_t *const messages[], const size_t lengths[], size_t count, uint8_t *digests);

#endif
