#ifndef TENDER_CSECP256K1_SHIM_H
#define TENDER_CSECP256K1_SHIM_H
#include <secp256k1.h>
#include <secp256k1_recovery.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

/* Swift 6 rejects the C global `secp256k1_context_static` as not concurrency-safe;
   a function returning it is fine (the static context is immutable). */
static inline const secp256k1_context *tender_secp256k1_context_static(void) {
    return secp256k1_context_static;
}
#endif
