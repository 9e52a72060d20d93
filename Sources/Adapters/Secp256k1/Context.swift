import CSecp256k1
import Posix

/// Owner of the one signing context of the process.
///
/// `@unchecked Sendable`: libsecp256k1 documents a context as safe to share between threads
/// for every call that takes it `const`; it is written only once, by `randomize` in `init`.
final class Context: @unchecked Sendable {
    let pointer: OpaquePointer

    init() {
        guard let created = secp256k1_context_create(UInt32(SECP256K1_CONTEXT_NONE)) else {
            fatalError("secp256k1_context_create failed: out of memory")
        }
        pointer = created
        // Randomisation blinds the signing arithmetic against side channels.
        var seed = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for index in seed.indices { seed[index] = generator.next() }
        let randomized = secp256k1_context_randomize(pointer, seed)
        secureWipe(&seed)
        // Fails only on a context that cannot sign, which would be a bug in this file.
        precondition(randomized == 1, "secp256k1_context_randomize failed")
    }

    deinit { secp256k1_context_destroy(pointer) }
}

/// The process-wide context: immutable after creation, so sharing it is sound (see `Context`).
let signingContext = Context()

/// The static context: verification, recovery and parsing need no randomisation. libsecp256k1
/// asks for `secp256k1_selftest` before it is first used (it aborts if the build is broken).
var verifyingContext: OpaquePointer {
    _ = selfTested
    return tender_secp256k1_context_static()
}

/// Runs once, on first use of the static context (a global's initialiser is run exactly once).
private let selfTested: Bool = {
    secp256k1_selftest()
    return true
}()
