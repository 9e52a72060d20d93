/// Reads structure out of fuzz input: small numbers, then the rest. Past the end it reads
/// zeros, so every input means something.
struct ByteReader {
    private(set) var rest: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { rest = bytes }

    mutating func byte() -> UInt8 {
        guard let first = rest.first else { return 0 }
        rest = rest.dropFirst()
        return first
    }

    /// The next `count` bytes (fewer at the end).
    mutating func take(_ count: Int) -> [UInt8] {
        let taken = Array(rest.prefix(count))
        rest = rest.dropFirst(count)
        return taken
    }

    /// Pieces of the rest, each led by its 2-byte big-endian length (cut short at the end),
    /// so a mutation inside one piece leaves the others where they were.
    mutating func lengthPrefixedPieces(max: Int = 64) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        while rest.count >= 2, pieces.count < max {
            let length = Int(byte()) << 8 | Int(byte())
            pieces.append(Array(rest.prefix(length)))
            rest = rest.dropFirst(length)
        }
        return pieces
    }
}

/// How the structured modes rearrange or alter a correct sequence of parts, three bytes each:
/// the operation (top 2 bits) and the part (low 6 bits), then a position and a value.
struct PartEdit {
    enum Operation {
        case drop, duplicate, swapWithNext, alter
    }

    let operation: Operation
    let index: Int
    let position: Int
    let value: UInt8

    init(_ reader: inout ByteReader) {
        let head = reader.byte()
        operation = [.drop, .duplicate, .swapWithNext, .alter][Int(head >> 6)]
        index = Int(head & 0x3F)
        position = Int(reader.byte())
        value = reader.byte()
    }

    /// Applies the edit to `parts`; `.alter` is left to `alter`, given the part's index.
    static func apply<Part>(
        _ edits: [PartEdit], to parts: inout [Part], alter: (inout Part, PartEdit) -> Void
    ) {
        for edit in edits where !parts.isEmpty {
            let index = edit.index % parts.count
            switch edit.operation {
            case .drop: parts.remove(at: index)
            case .duplicate: parts.append(parts[index])
            case .swapWithNext: parts.swapAt(index, (index + 1) % parts.count)
            case .alter: alter(&parts[index], edit)
            }
        }
    }
}

/// CRC-32 (IEEE, reflected), as frames and Bytewords use it: to repair a mutated frame's CRC
/// so that mutations reach the fountain decoder behind it.
enum HarnessCRC32 {
    private static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
        return value
    }

    static func checksum(_ pieces: ArraySlice<UInt8>...) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for piece in pieces {
            for byte in piece { crc = (crc >> 8) ^ table[Int((crc ^ UInt32(byte)) & 0xFF)] }
        }
        return ~crc
    }
}
