import CSecp256k1

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
        _ = secp256k1_context_randomize(pointer, seed)
        seed.withUnsafeMutableBytes { wipe($0) }
    }

    deinit { secp256k1_context_destroy(pointer) }
}

/// The process-wide context: immutable after creation, so sharing it is sound (see `Context`).
let signingContext = Context()

/// The static context: verification, recovery and parsing need no randomisation.
var verifyingContext: OpaquePointer { tender_secp256k1_context_static() }

/// Overwrites secret bytes so they do not linger in freed memory.
func wipe(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress else { return }
    for offset in 0..<buffer.count {
        base.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
    }
}
