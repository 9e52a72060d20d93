/// One part of a fountain-coded message: BC-UR's `[seqNum, seqLen, messageLen, checksum, data]`.
struct FountainPart: Equatable, Sendable {
    var seqNum: UInt32
    var seqLen: Int
    var messageLength: Int
    /// CRC32 of the whole message; also the sequence's identity and the fountain seed.
    var checksum: UInt32
    var data: [UInt8]
}

/// Splits one message into fragments and produces parts forever: `1...seqLen` plain, then
/// mixed. `seqNum` wraps after 2^32 − 1 parts, skipping 0.
struct FountainEncoder: Sendable {
    let messageLength: Int
    let checksum: UInt32
    let fragmentLength: Int
    private let fragments: [[UInt8]]
    private let chooser: FragmentChooser
    private(set) var seqNum: UInt32

    /// `message` must not be empty, nor longer than `UInt32.max`.
    init(message: [UInt8], fragmentLength: Int, firstSeqNum: UInt32 = 0) {
        precondition(!message.isEmpty && message.count <= Int(UInt32.max))
        messageLength = message.count
        checksum = CRC32.checksum(message)
        self.fragmentLength = fragmentLength
        fragments = FountainMath.partition(message, fragmentLength: fragmentLength)
        chooser = FragmentChooser(seqLen: fragments.count, checksum: checksum)
        seqNum = firstSeqNum
    }

    var seqLen: Int { fragments.count }

    mutating func nextPart() -> FountainPart {
        seqNum &+= 1
        if seqNum == 0 { seqNum = 1 }
        let indexes = chooser.indexes(seqNum: seqNum)
        var data: [UInt8]
        if indexes.count == 1 {
            data = fragments[indexes[0]]
        } else {
            data = [UInt8](repeating: 0, count: fragmentLength)
            for index in indexes { FountainMath.xor(&data, fragments[index]) }
        }
        return FountainPart(
            seqNum: seqNum, seqLen: seqLen, messageLength: messageLength, checksum: checksum,
            data: data)
    }
}
