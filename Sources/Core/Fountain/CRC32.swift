/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), as used by BC-UR and our frames.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
        }
        return value
    }

    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        update(&crc, bytes)
        return ~crc
    }

    /// Folds `bytes` into a running (pre-inverted) CRC; start at 0xFFFFFFFF, finish with `~`.
    static func update(_ crc: inout UInt32, _ bytes: some Sequence<UInt8>) {
        table.withUnsafeBufferPointer { table in
            for byte in bytes {
                crc = (crc >> 8) ^ table[Int((crc ^ UInt32(byte)) & 0xFF)]
            }
        }
    }
}

/// Big-endian helpers shared by the fountain math and the frame format.
enum BigEndian {
    static func bytes(_ value: UInt32) -> [UInt8] {
        [
            UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF),
            UInt8(value & 0xFF),
        ]
    }

    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: Self.bytes(value))
    }

    static func append(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2])
            << 8
            | UInt32(bytes[offset + 3])
    }

    static func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }
}
