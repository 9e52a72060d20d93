/// Reassembles one message from fountain parts received in any order, with losses and
/// repeats.
///
/// The parts are those of BC-UR's fountain code (each the XOR of the fragments that
/// `FragmentChooser` names), but the decoder solves them by Gaussian elimination over GF(2)
/// rather than BC-UR's peeling: it decodes from any set of parts whose fragment sets span all
/// fragments, which peeling does not always do. At 20 % loss it needs markedly fewer frames
/// (see SimulationTests), and what it decodes is the same message.
///
/// Rules:
/// - The first valid part fixes the sequence: part count, message length, checksum and
///   fragment length. A later part that differs in any of them is refused with
///   `.mixedSequence`, and the decoder is left unchanged.
/// - Declared sizes are checked against `FountainLimits` before anything is allocated.
/// - Rows are kept in reduced row-echelon form, one per pivot fragment, so at most `seqLen`
///   rows are ever held (about one message of data plus `seqLen²` bits): pending mixed
///   parts are capped by construction. A part that adds nothing (a repeat, or a combination
///   of parts already held) is dropped.
/// - When the rank reaches `seqLen` every row is one fragment; the message is joined,
///   trimmed and checked against the CRC32. On mismatch the decoder resets and throws
///   `.messageChecksumMismatch`.
struct FountainDecoder: Sendable {
    /// What every part of one sequence has in common.
    struct Shape: Equatable, Sendable {
        var seqLen: Int
        var messageLength: Int
        var checksum: UInt32
        var fragmentLength: Int
    }

    /// One equation: the XOR of the fragments whose bits are set equals `data`.
    private struct Row: Sendable {
        var bits: [UInt64]
        var data: [UInt8]

        func has(_ column: Int) -> Bool { bits[column >> 6] & (1 << UInt64(column & 63)) != 0 }

        mutating func add(_ other: Row) {
            for word in bits.indices { bits[word] ^= other.bits[word] }
            FountainMath.xor(&data, other.data)
        }

        var lowestColumn: Int? {
            for (word, value) in bits.enumerated() where value != 0 {
                return word << 6 + value.trailingZeroBitCount
            }
            return nil
        }
    }

    let limits: FountainLimits
    private(set) var shape: Shape?
    private var chooser: FragmentChooser?
    /// `rows[c]` is the row whose pivot is fragment `c`; no other row has bit `c` set.
    private var rows: [Row?] = []
    /// Independent parts held: fragments' worth of information received.
    private(set) var rank = 0
    /// Valid parts of this sequence taken in, repeats included.
    private(set) var receivedPartCount = 0
    private(set) var message: [UInt8]?

    init(limits: FountainLimits = .standard) {
        self.limits = limits
    }

    /// Rank over fragment count (1 when complete, 0 before the first part).
    var fractionComplete: Double {
        if message != nil { return 1 }
        guard let shape else { return 0 }
        return Double(rank) / Double(shape.seqLen)
    }

    /// Checks one part's header on its own: ranges, limits and that `seqLen` fragments of
    /// `fragmentLength` bytes hold exactly `messageLength` bytes (the last one possibly padded).
    static func shape(
        seqNum: UInt32, seqLen: UInt64, messageLength: UInt64, checksum: UInt32,
        fragmentLength: Int, limits: FountainLimits
    ) throws(FountainError) -> Shape {
        guard seqNum >= 1 else { throw FountainError(.invalidPart, "sequence number 0") }
        guard seqLen >= 1 else { throw FountainError(.invalidPart, "sequence length 0") }
        guard messageLength >= 1 else { throw FountainError(.invalidPart, "message length 0") }
        guard fragmentLength >= 1 else { throw FountainError(.invalidPart, "empty fragment") }
        guard messageLength <= UInt64(clamping: limits.maxMessageLength) else {
            throw FountainError(
                .messageTooLarge,
                "declared message length \(messageLength) exceeds the limit of \(limits.maxMessageLength) bytes"
            )
        }
        guard seqLen <= UInt64(clamping: limits.maxFragmentCount) else {
            throw FountainError(
                .messageTooLarge,
                "declared \(seqLen) fragments exceeds the limit of \(limits.maxFragmentCount)")
        }
        let count = Int(seqLen)
        let length = Int(messageLength)
        // (seqLen - 1) * fragmentLength < messageLength <= seqLen * fragmentLength
        let (full, overflow) = count.multipliedReportingOverflow(by: fragmentLength)
        guard !overflow, full >= length, full - fragmentLength < length else {
            throw FountainError(
                .invalidPart,
                "\(count) fragments of \(fragmentLength) bytes cannot hold a \(length)-byte message"
            )
        }
        return Shape(
            seqLen: count, messageLength: length, checksum: checksum, fragmentLength: fragmentLength
        )
    }

    /// Refuses `shape` if another sequence is under way (or done); changes nothing.
    func check(_ shape: Shape) throws(FountainError) {
        guard let current = self.shape, current != shape else { return }
        var differences: [String] = []
        if current.checksum != shape.checksum {
            differences.append(
                "checksum \(Self.hex(shape.checksum)) instead of \(Self.hex(current.checksum))")
        }
        if current.messageLength != shape.messageLength {
            differences.append(
                "message length \(shape.messageLength) instead of \(current.messageLength)")
        }
        if current.seqLen != shape.seqLen {
            differences.append("\(shape.seqLen) fragments instead of \(current.seqLen)")
        }
        if current.fragmentLength != shape.fragmentLength {
            differences.append(
                "fragment length \(shape.fragmentLength) instead of \(current.fragmentLength)")
        }
        throw FountainError(
            .mixedSequence,
            "part of another sequence: " + differences.joined(separator: ", "))
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Takes one part whose shape `shape(...)` accepted. Repeats, parts that add no
    /// information and parts after completion are ignored.
    mutating func receive(seqNum: UInt32, shape: Shape, data: [UInt8]) throws(FountainError) {
        try check(shape)
        guard message == nil else { return }
        if self.shape == nil {
            self.shape = shape
            chooser = FragmentChooser(seqLen: shape.seqLen, checksum: shape.checksum)
            rows = Array(repeating: nil, count: shape.seqLen)
        }
        receivedPartCount += 1
        guard let chooser else { return }
        var row = Row(bits: Array(repeating: 0, count: (shape.seqLen + 63) / 64), data: data)
        for index in chooser.indexes(seqNum: seqNum) {
            row.bits[index >> 6] |= 1 << UInt64(index & 63)
        }
        // Eliminate the pivots already held; that brings in only non-pivot columns.
        let original = row.bits
        for (word, value) in original.enumerated() {
            var remaining = value
            while remaining != 0 {
                let column = word << 6 + remaining.trailingZeroBitCount
                remaining &= remaining - 1
                if let pivot = rows[column] { row.add(pivot) }
            }
        }
        guard let column = row.lowestColumn else { return }  // nothing new
        for other in rows.indices where rows[other]?.has(column) == true {
            rows[other]?.add(row)
        }
        rows[column] = row
        rank += 1
        if rank == shape.seqLen { try finish() }
    }

    private mutating func finish() throws(FountainError) {
        guard let shape else { return }
        var joined: [UInt8] = []
        joined.reserveCapacity(shape.seqLen * shape.fragmentLength)
        for row in rows { joined.append(contentsOf: row?.data ?? []) }
        joined.removeLast(joined.count - shape.messageLength)
        guard CRC32.checksum(joined) == shape.checksum else {
            self = FountainDecoder(limits: limits)
            throw FountainError(
                .messageChecksumMismatch,
                "reassembled message fails its CRC32 \(Self.hex(shape.checksum)); decoder reset")
        }
        message = joined
        rows = []
    }
}
