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
    /// Bytes as they are (a type hash, a `bytes32`).
    mutating func updateBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    mutating func updateWord(_ address: Address) {
        let padding: (UInt64, UInt32) = (0, 0)  // 12 bytes
        withUnsafeBytes(of: padding) { update($0) }
        updateBytes(address.bytes)
    }

    mutating func updateWord(_ value: UInt128) {
        let words: (UInt64, UInt64, UInt64, UInt64) = (
            0, 0, UInt64(truncatingIfNeeded: value >> 64).bigEndian,
            UInt64(truncatingIfNeeded: value).bigEndian
        )
        withUnsafeBytes(of: words) { update($0) }
    }

    mutating func updateWord(_ value: UInt64) { updateWord(UInt128(value)) }
}
