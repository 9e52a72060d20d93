/// How much memory and work a decoder may spend on untrusted parts or frames.
///
/// Every limit is checked against what a part *declares* before anything is allocated for it.
public struct FountainLimits: Sendable, Equatable {
    /// Longest message accepted (UR: the CBOR body; frames: the payload), in bytes.
    public var maxMessageLength: Int
    /// Most fragments (`seqLen`) a message may be split into. Each mixed part costs work in
    /// proportion to this, so it bounds CPU as well as memory.
    public var maxFragmentCount: Int

    public init(maxMessageLength: Int = 1 << 20, maxFragmentCount: Int = 4_096) {
        self.maxMessageLength = maxMessageLength
        self.maxFragmentCount = maxFragmentCount
    }

    /// 1 MiB messages in at most 4,096 fragments. A decoder then holds at most about one
    /// message of data and 2 MiB of bookkeeping (`seqLen²` bits).
    public static let standard = FountainLimits()
}
