import Fountain
import QR

/// The frames that show a payload as QR codes: one code when it fits, else a fountain-coded
/// loop, in Tender's binary frames (denser) or BC-UR (interoperable).
public struct AnimatedCode: Sendable {
    public enum Encoding: String, Sendable, CaseIterable {
        case binary
        case ur
    }

    /// Payloads up to this size go in one binary code at level M.
    public static let singleCodeCapacity = QRErrorCorrection.medium.binaryCapacity
    /// UR fragment bytes: two bytewords letters a byte plus the part header fit one
    /// alphanumeric-mode code at level M (3,391 characters, version 40).
    public static let urFragmentLength = 1_600

    /// The fragments a loop gets when none is asked for fill a version-39 code, not 40:
    /// zxing-cpp 1.4, the first decoder, misses version-40 codes drawn at 2 px a module
    /// (its module-size estimate on large symbols, zxing-cpp issue #314) and leaves every such
    /// frame to zbar's slower looks; version 39 reads at 2 px, for 5 % fewer bytes a code.
    /// Binary: 2,213 bytes at level M less the 21-byte frame header. UR: the longest CBOR
    /// fragment whose part fits 3,220 alphanumeric characters at its longest (part 99,999 of
    /// hundreds, of a message of 64 kB or more).
    public static func defaultFragmentLength(_ encoding: Encoding) -> Int {
        switch encoding {
        case .binary: 2_192
        case .ur: 1_573
        }
    }

    private enum Source: Sendable {
        case single([UInt8])
        case frames(FrameEncoder)
        case ur(UREncoder)
    }

    private var source: Source
    /// The symbol of a one-code loop, once encoded (see `nextMatrix`).
    private var single: (level: QRErrorCorrection, matrix: QRMatrix)?

    /// `fragmentLength` trades frames per loop against code density (smaller codes scan
    /// faster from a screen); the defaults fill a version-39 code at level M
    /// (`defaultFragmentLength`).
    public init(payload: [UInt8], encoding: Encoding, fragmentLength: Int? = nil) throws {
        let limits = Self.fragmentLengths(encoding)
        if let fragmentLength, !limits.contains(fragmentLength) {
            throw FountainError(
                .invalidArgument,
                "a fragment of \(fragmentLength) bytes does not work for \(encoding.rawValue) codes: use \(limits.lowerBound)…\(limits.upperBound)"
            )
        }
        switch encoding {
        case .binary where payload.count <= Self.singleCodeCapacity && fragmentLength == nil:
            source = .single(payload)
        case .binary:
            source = .frames(
                try FrameEncoder(
                    message: payload,
                    fragmentLength: fragmentLength ?? Self.defaultFragmentLength(.binary)))
        case .ur:
            let ur = try UR(type: ScanAssembler.urType, cbor: payload)
            let encoder = UREncoder(
                ur: ur, maxFragmentLength: fragmentLength ?? Self.defaultFragmentLength(.ur))
            guard encoder.seqLen <= FountainLimits.standard.maxFragmentCount else {
                throw FountainError(
                    .messageTooLarge,
                    "\(payload.count) bytes need \(encoder.seqLen) parts; at most \(FountainLimits.standard.maxFragmentCount)"
                )
            }
            source = .ur(encoder)
        }
    }

    /// Fragment lengths that make one QR code at level M: binary frames up to a full
    /// byte-mode code; UR parts from BC-UR's minimum of 10 up to a full alphanumeric code.
    public static func fragmentLengths(_ encoding: Encoding) -> ClosedRange<Int> {
        switch encoding {
        case .binary: 1...FrameFormat.defaultFragmentLength
        case .ur: 10...urFragmentLength
        }
    }

    /// Frames in one pass of the loop (1 for a single code).
    public var frameCount: Int {
        switch source {
        case .single: 1
        case .frames(let encoder): encoder.frameCount
        case .ur(let encoder): encoder.seqLen
        }
    }

    /// The next code as a QR symbol: binary frames in byte mode, UR parts as uppercase text in
    /// alphanumeric mode (5.5 bits a character instead of 8). A one-code loop shows the same
    /// symbol forever, so it is encoded once.
    public mutating func nextMatrix(level: QRErrorCorrection = .medium) throws -> QRMatrix {
        if let single, single.level == level { return single.matrix }
        let matrix: QRMatrix
        if case .ur = source {
            matrix = try QREncoder.encode(segmentedText: nextURText(), level: level)
        } else {
            matrix = try QREncoder.encode(nextCode(), level: level)
        }
        if frameCount == 1 { single = (level, matrix) }
        return matrix
    }

    /// The next code's bytes (UR parts as uppercase text).
    public mutating func nextCode() -> [UInt8] {
        switch source {
        case .single(let payload):
            return payload
        case .frames(var encoder):
            let frame = encoder.nextFrame()
            source = .frames(encoder)
            return frame
        case .ur:
            return Array(nextURText().utf8)
        }
    }

    /// The next UR part, uppercased for alphanumeric mode.
    private mutating func nextURText() -> String {
        guard case .ur(var encoder) = source else { preconditionFailure("not a UR loop") }
        let part = encoder.nextPart().uppercased()
        source = .ur(encoder)
        return part
    }
}
