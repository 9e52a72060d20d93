/// Produces the parts of one UR for an animated QR code, forever.
///
/// A UR whose CBOR fits one fragment is single-part: every `nextPart()` is the same
/// `ur:type/body` text. Otherwise parts are `ur:type/seqNum-seqLen/body`, where parts
/// `1...seqLen` each carry one fragment and later ones mix several (BC-UR fountain code).
/// Output is lower case, as in BC-UR's vectors; it contains only letters, digits, `:`, `/`
/// and `-`, so `uppercased()` text fits QR alphanumeric mode (which has no lower case).
public struct UREncoder: Sendable {
    public let ur: UR
    private var fountain: FountainEncoder

    /// - Parameters:
    ///   - maxFragmentLength: most CBOR bytes per part; fragments are evened out below it.
    ///   - minFragmentLength: fewest bytes per fragment (BC-UR's default is 10).
    ///   - firstSeqNum: the part number before the first one produced (0 starts at part 1).
    public init(
        ur: UR, maxFragmentLength: Int, minFragmentLength: Int = 10, firstSeqNum: UInt32 = 0
    ) {
        precondition(minFragmentLength >= 1, "minFragmentLength must be at least 1")
        precondition(
            maxFragmentLength >= minFragmentLength, "maxFragmentLength below minFragmentLength")
        self.ur = ur
        let fragmentLength = FountainMath.nominalFragmentLength(
            messageLength: ur.cbor.count, minFragmentLength: minFragmentLength,
            maxFragmentLength: maxFragmentLength)
        fountain = FountainEncoder(
            message: ur.cbor, fragmentLength: fragmentLength, firstSeqNum: firstSeqNum)
    }

    /// Number of fragments: a receiver with no loss needs this many parts.
    public var seqLen: Int { fountain.seqLen }
    public var isSinglePart: Bool { fountain.seqLen == 1 }
    /// Bytes of CBOR carried by each part.
    public var fragmentLength: Int { fountain.fragmentLength }
    /// The number of the part produced last (0 before the first).
    public var seqNum: UInt32 { fountain.seqNum }

    public mutating func nextPart() -> String {
        let part = fountain.nextPart()
        if isSinglePart { return ur.string }
        return "ur:\(ur.type)/\(part.seqNum)-\(part.seqLen)/"
            + Bytewords.encode(part.cbor, style: .minimal)
    }

    /// Single-part text of `ur` (whatever its length).
    public static func encode(_ ur: UR) -> String { ur.string }
}
