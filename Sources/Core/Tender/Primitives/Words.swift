import Codecs

/// Where EIP-712 struct words go: a hasher (`Keccak256`) or a message of a batch
/// (`Keccak256Batch`, verification's). Each struct writes its words once, for both
/// (`Note.updateStruct`, `Output.updateStruct`). Words go straight in: EIP-712 struct hashing
/// is on the verification hot path, and building a 32-byte array per field costs more than
/// hashing it.
protocol WordHashing {
    mutating func update(_ buffer: UnsafeRawBufferPointer)
}

extension Keccak256: WordHashing {}

extension Keccak256Batch: WordHashing {
    mutating func update(_ buffer: UnsafeRawBufferPointer) { write(buffer) }
}

extension WordHashing {
    /// Bytes as they are (a type hash, a `bytes32`, a slice of a batch's digests).
    mutating func updateBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    mutating func updateBytes(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The raw bytes of `value` (a tuple of words, already in the byte order wanted).
    mutating func updateRaw<T>(_ value: T) {
        withUnsafeBytes(of: value) { update($0) }
    }

    mutating func updateWord(_ address: Address) {
        updateRaw((UInt64(0), UInt32(0)))  // 12 bytes of padding
        updateBytes(address.bytes)
    }

    mutating func updateWord(_ value: UInt128) {
        updateRaw(
            (
                UInt64(0), UInt64(0), UInt64(truncatingIfNeeded: value >> 64).bigEndian,
                UInt64(truncatingIfNeeded: value).bigEndian
            ))
    }

    mutating func updateWord(_ value: UInt64) { updateWord(UInt128(value)) }
}
