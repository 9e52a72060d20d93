/// Collects UR parts (single-part or multipart, any letter case) until a UR is complete.
///
/// Rules: the first valid part fixes the type and the sequence; a part of another type or
/// sequence, before or after completion, throws `.mixedSequence` and changes nothing.
/// Corrupted text (Bytewords checksum), malformed parts and parts above the limits throw and
/// change nothing. Repeated parts, and parts of the same sequence after completion, are
/// accepted and ignored.
public struct URDecoder: Sendable {
    public struct Progress: Equatable, Sendable {
        /// `usefulPartCount` over the fragment count; 1 when complete.
        public var fraction: Double
        /// Valid parts accepted so far, repeats included.
        public var receivedPartCount: Int
        /// Fragments of the message (`seqLen`); nil before the first part.
        public var expectedPartCount: Int?
        /// Parts that added information (the rank of what is held): the message is complete
        /// when this reaches the expected count. Repeats and redundant mixtures don't count.
        public var usefulPartCount: Int
        /// The UR, once complete.
        public var complete: UR?
    }

    public let limits: FountainLimits
    private var type: String?
    private var fountain: FountainDecoder
    private var receivedPartCount = 0
    /// The decoded UR, once complete.
    public private(set) var result: UR?

    public init(limits: FountainLimits = .standard) {
        self.limits = limits
        fountain = FountainDecoder(limits: limits)
    }

    public var progress: Progress {
        if let result, fountain.shape == nil {
            return Progress(
                fraction: 1, receivedPartCount: receivedPartCount, expectedPartCount: 1,
                usefulPartCount: 1, complete: result)
        }
        return Progress(
            fraction: fountain.fractionComplete, receivedPartCount: receivedPartCount,
            expectedPartCount: fountain.shape?.seqLen,
            usefulPartCount: result != nil ? fountain.shape?.seqLen ?? 0 : fountain.rank,
            complete: result)
    }

    public mutating func receive(_ part: String) throws(FountainError) -> Progress {
        let text = try URText(part)
        if let type, type != text.type {
            throw FountainError(
                .mixedSequence, "part of UR type \"\(text.type)\" while receiving \"\(type)\"")
        }
        guard let sequence = text.sequence else {
            let ur = try UR(
                type: text.type, cbor: text.decodeBody(maxBytes: limits.maxMessageLength))
            if fountain.shape != nil {
                throw FountainError(
                    .mixedSequence, "single-part UR while a multipart UR is under way")
            }
            if let result, result != ur {
                throw FountainError(.mixedSequence, "another single-part UR after completion")
            }
            type = ur.type
            result = ur
            receivedPartCount += 1
            return progress
        }
        if result != nil, fountain.shape == nil {
            throw FountainError(.mixedSequence, "multipart UR part after a single-part UR")
        }
        // A part's CBOR is its fragment plus at most 32 bytes of header.
        let cbor = try text.decodeBody(maxBytes: limits.maxMessageLength + 32)
        let (seqNum, shape, data) = try FountainPart.decode(cbor: cbor, limits: limits)
        guard seqNum == sequence.seqNum, UInt64(shape.seqLen) == sequence.seqLen else {
            throw FountainError(
                .invalidSequence,
                "text says part \(sequence.seqNum)-\(sequence.seqLen), CBOR says \(seqNum)-\(shape.seqLen)"
            )
        }
        do {
            try fountain.receive(seqNum: seqNum, shape: shape, data: data)
        } catch {
            if error.kind == .messageChecksumMismatch {
                type = nil
                receivedPartCount = 0
            }
            throw error
        }
        type = text.type
        receivedPartCount += 1
        if result == nil, let message = fountain.message {
            result = try UR(type: text.type, cbor: message)
        }
        return progress
    }
}
