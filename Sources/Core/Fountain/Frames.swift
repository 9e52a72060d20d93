/// Tender binary frames: the BC-UR fountain code over raw bytes, for QR codes in byte mode
/// (2,331 bytes at level M, version 40, against 1,667 bytes of CBOR per UR part as Bytewords
/// in alphanumeric mode, whose 3,391 characters hold two per byte plus the UR's own header).
///
/// Frame layout (all integers big-endian), 21-byte header then the fragment:
///
///     offset size field
///          0    2 magic "TF" (0x54 0x46)
///          2    1 version, 1
///          3    4 message id: CRC32 of the whole message; also the fountain seed (as BC-UR's
///                 checksum) and the final integrity check of the reassembled message
///          7    4 message length in bytes, 1...2^32-1
///         11    2 seqLen: number of fragments, 1...65,535
///         13    4 seqNum, from 1: 1...seqLen carry fragment seqNum-1 alone; later frames XOR
///                 the fragments BC-UR's `chooseFragments(seqNum, seqLen, message id)` picks
///         17    4 frame CRC32 over bytes 0..<17 and the fragment (detects any corruption,
///                 header included)
///         21    f fragment, f = ceil(messageLength / seqLen) exactly; the last fragment is
///                 zero-padded
///
/// A frame is exactly 21 + f bytes: shorter is `.truncated`, longer is `.invalidPart`.
/// Magic or version otherwise is `.unsupportedFormat`. The sequence is identified by
/// (message id, message length, seqLen); a frame that differs after the first is
/// `.mixedSequence`.
public enum FrameFormat {
    public static let magic: [UInt8] = [0x54, 0x46]
    public static let version: UInt8 = 1
    public static let headerLength = 21
    /// Largest binary payload of a QR code at error-correction level M (version 40).
    public static let qrBinaryCapacityLevelM = 2_331
    /// A fragment length that makes each frame exactly fill a level-M QR code: 2,310 bytes.
    public static let defaultFragmentLength = qrBinaryCapacityLevelM - headerLength
    /// Most frames a message may take: what a decoder accepts (`FountainLimits.standard`),
    /// so an encoder never makes a loop no receiver would assemble.
    public static let maxFrameCount = FountainLimits.standard.maxFragmentCount
}

/// Produces the frames of one message, forever (a fountain: frames after `frameCount` are
/// new combinations, so a receiver that joined late or lost frames catches up).
public struct FrameEncoder: Sendable {
    private var fountain: FountainEncoder

    /// - Parameter fragmentLength: most payload bytes per frame; the message is split into
    ///   `ceil(count / fragmentLength)` fragments of even length.
    /// - Throws: `.invalidArgument` for an empty message or a fragment length below 1,
    ///   `.messageTooLarge` when that needs more than `FrameFormat.maxFrameCount` frames.
    public init(
        message: [UInt8], fragmentLength: Int = FrameFormat.defaultFragmentLength
    )
        throws(FountainError)
    {
        guard !message.isEmpty else { throw FountainError(.invalidArgument, "empty message") }
        guard fragmentLength >= 1 else {
            throw FountainError(.invalidArgument, "fragment length must be at least 1")
        }
        guard message.count <= Int(UInt32.max) else {
            throw FountainError(.messageTooLarge, "message longer than 2^32 - 1 bytes")
        }
        let count = (message.count + fragmentLength - 1) / fragmentLength
        guard count <= FrameFormat.maxFrameCount else {
            throw FountainError(
                .messageTooLarge,
                "\(message.count) bytes need \(count) frames of \(fragmentLength) bytes; at most \(FrameFormat.maxFrameCount)"
            )
        }
        let evened = (message.count + count - 1) / count
        fountain = FountainEncoder(message: message, fragmentLength: evened)
    }

    /// Frames of the message: a receiver with no loss needs this many.
    public var frameCount: Int { fountain.seqLen }
    /// Payload bytes in each frame.
    public var fragmentLength: Int { fountain.fragmentLength }
    /// CRC32 of the message, carried in every frame as its id.
    public var messageID: UInt32 { fountain.checksum }

    public mutating func nextFrame() -> [UInt8] {
        let part = fountain.nextPart()
        var frame = FrameFormat.magic
        frame.reserveCapacity(FrameFormat.headerLength + part.data.count)
        frame.append(FrameFormat.version)
        BigEndian.append(part.checksum, to: &frame)
        BigEndian.append(UInt32(part.messageLength), to: &frame)
        BigEndian.append(UInt16(part.seqLen), to: &frame)
        BigEndian.append(part.seqNum, to: &frame)
        var crc: UInt32 = 0xFFFF_FFFF
        CRC32.update(&crc, frame)
        CRC32.update(&crc, part.data)
        BigEndian.append(~crc, to: &frame)
        frame.append(contentsOf: part.data)
        return frame
    }
}

/// Collects frames until the message is complete. Same rules as `URDecoder`: a frame of
/// another sequence throws `.mixedSequence`, a corrupted, truncated or oversized one throws
/// its own error, and none of these changes the decoder; repeats are ignored.
public struct FrameDecoder: Sendable {
    public struct Progress: Equatable, Sendable {
        /// `usefulPartCount` over the fragment count; 1 when complete.
        public var fraction: Double
        /// Valid frames accepted so far, repeats included.
        public var receivedFrameCount: Int
        /// Fragments of the message (`seqLen`); nil before the first frame.
        public var expectedFrameCount: Int?
        /// Parts that added information (the rank of what is held): the message is complete
        /// when this reaches the expected count. Repeats and redundant mixtures don't count.
        public var usefulPartCount: Int
        /// The message, once complete.
        public var complete: [UInt8]?
    }

    private var fountain: FountainDecoder

    public init(limits: FountainLimits = .standard) {
        fountain = FountainDecoder(limits: limits)
    }

    public var limits: FountainLimits { fountain.limits }
    /// The message, once complete.
    public var message: [UInt8]? { fountain.message }

    public var progress: Progress {
        let expected = fountain.shape?.seqLen
        return Progress(
            fraction: fountain.fractionComplete, receivedFrameCount: fountain.receivedPartCount,
            expectedFrameCount: expected,
            usefulPartCount: fountain.message != nil ? expected ?? 0 : fountain.rank,
            complete: fountain.message)
    }

    public mutating func receive(_ frame: [UInt8]) throws(FountainError) -> Progress {
        guard frame.count >= 3 else {
            throw FountainError(
                .truncated, "frame of \(frame.count) bytes, shorter than its header")
        }
        guard frame[0] == FrameFormat.magic[0], frame[1] == FrameFormat.magic[1] else {
            throw FountainError(.unsupportedFormat, "not a Tender frame (magic)")
        }
        guard frame[2] == FrameFormat.version else {
            throw FountainError(
                .unsupportedFormat, "frame version \(frame[2]), expected \(FrameFormat.version)")
        }
        guard frame.count >= FrameFormat.headerLength else {
            throw FountainError(
                .truncated, "frame of \(frame.count) bytes, shorter than its header")
        }
        let checksum = BigEndian.uint32(frame, at: 3)
        let messageLength = BigEndian.uint32(frame, at: 7)
        let seqLen = BigEndian.uint16(frame, at: 11)
        let seqNum = BigEndian.uint32(frame, at: 13)
        let frameCRC = BigEndian.uint32(frame, at: 17)
        guard seqLen >= 1, messageLength >= 1 else {
            throw FountainError(.invalidPart, "frame declares zero fragments or an empty message")
        }
        guard messageLength <= UInt32(clamping: fountain.limits.maxMessageLength) else {
            throw FountainError(
                .messageTooLarge,
                "declared message length \(messageLength) exceeds the limit of \(fountain.limits.maxMessageLength) bytes"
            )
        }
        let fragmentLength = (Int(messageLength) + Int(seqLen) - 1) / Int(seqLen)
        let expectedLength = FrameFormat.headerLength + fragmentLength
        guard frame.count >= expectedLength else {
            throw FountainError(
                .truncated, "frame of \(frame.count) bytes, its header declares \(expectedLength)")
        }
        guard frame.count == expectedLength else {
            throw FountainError(
                .invalidPart, "frame of \(frame.count) bytes, its header declares \(expectedLength)"
            )
        }
        var crc: UInt32 = 0xFFFF_FFFF
        CRC32.update(&crc, frame[0..<17])
        CRC32.update(&crc, frame[FrameFormat.headerLength...])
        guard ~crc == frameCRC else {
            throw FountainError(.checksumMismatch, "frame CRC32 does not match: corrupted frame")
        }
        let shape = try FountainDecoder.shape(
            seqNum: seqNum, seqLen: UInt64(seqLen), messageLength: UInt64(messageLength),
            checksum: checksum, fragmentLength: fragmentLength, limits: fountain.limits)
        try fountain.receive(
            seqNum: seqNum, shape: shape, data: Array(frame[FrameFormat.headerLength...]))
        return progress
    }
}
