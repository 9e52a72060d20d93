import Codecs
import Fountain

/// What scanning produced, in order.
public enum ScanEvent: Equatable, Sendable {
    /// A whole payload: one code's bytes, or an animated sequence once assembled.
    case payload([UInt8])
    /// An animated sequence advanced: fragments recovered of the total.
    case progress(encoding: AnimatedEncoding, recovered: Int, total: Int)
    /// A code that was read but refused (corrupt part, another sequence, …), with the reason.
    case rejected(String)
    /// Another sequence kept arriving while the unfinished one made no progress (the sender
    /// restarted): the unfinished one was dropped for it.
    case restarted(encoding: AnimatedEncoding)
}

public enum AnimatedEncoding: String, Sendable {
    /// Tender binary frames (`TF` header).
    case binaryFrames = "binary frames"
    /// BC-UR multipart (`ur:type/seq-len/…`, bytewords).
    case ur = "BC-UR"
}

/// Turns decoded QR payloads into whole payloads (one pipeline for camera, images and raw
/// streams): drops repeats of the same code, assembles animated sequences in either encoding,
/// and reports progress and refusals. Pure: no pixels, no I/O.
public struct ScanAssembler: Sendable {
    /// The UR type Tender payloads travel under (its CBOR is the Tender envelope itself).
    public static let urType = "tender"

    private var frames = FrameDecoder()
    private var ur = URDecoder()
    private var lastCode: [UInt8]?
    /// The last progress reported: repeats of a looped sequence add nothing worth saying.
    private var lastProgress: ScanEvent?
    private var delivered: Set<[UInt8]> = []
    /// Codes of another sequence in a row, with none of the current one in between.
    private var foreignInARow = 0
    /// That many in a row mean the sender moved on: a stray code alone never does.
    public static let codesToSwitchSequence = 3

    public init() {}

    /// Feeds the payloads read from one video frame or image.
    public mutating func consume(_ code: [UInt8]) -> [ScanEvent] {
        guard code != lastCode else { return [] }  // the same code in consecutive frames
        lastCode = code
        // "TF" alone is no frame ("TFL journey planner"): the version byte must match too.
        if code.count > FrameFormat.headerLength, code.starts(with: FrameFormat.magic),
            code[FrameFormat.magic.count] == FrameFormat.version
        {
            return consumeFrame(code)
        }
        // "ur:" in any case, tested on the bytes: no copy of a 3 kB part just to look.
        if code.count >= 3, code[0] | 0x20 == UInt8(ascii: "u"),
            code[1] | 0x20 == UInt8(ascii: "r"),
            code[2] == UInt8(ascii: ":"), let text = String(validating: code, as: UTF8.self)
        {
            return consumeUR(text)
        }
        return deliver(code)
    }

    private mutating func consumeFrame(_ frame: [UInt8]) -> [ScanEvent] {
        do {
            let progress = try frames.receive(frame)
            foreignInARow = 0
            if let message = progress.complete {
                frames = FrameDecoder()
                return deliver(message)
            }
            return report(
                .progress(
                    encoding: .binaryFrames, recovered: progress.usefulPartCount,
                    total: progress.expectedFrameCount ?? 0))
        } catch {
            if error.kind == .mixedSequence, switchSequence() {
                frames = FrameDecoder()
                return [.restarted(encoding: .binaryFrames)] + consumeFrame(frame)
            }
            return [.rejected("binary frame: \(error)")]
        }
    }

    /// Counts a code of another sequence; true when enough came in a row to switch to it.
    private mutating func switchSequence() -> Bool {
        foreignInARow += 1
        guard foreignInARow >= Self.codesToSwitchSequence else { return false }
        foreignInARow = 0
        lastProgress = nil
        return true
    }

    private mutating func consumeUR(_ text: String) -> [ScanEvent] {
        do {
            let progress = try ur.receive(text)
            foreignInARow = 0
            if let complete = progress.complete {
                ur = URDecoder()
                guard complete.type == Self.urType else {
                    if let token = Self.cashuToken(type: complete.type, cbor: complete.cbor) {
                        return deliver(token)
                    }
                    return [.rejected("a ur:\(complete.type) code is not a Tender payload")]
                }
                return deliver(complete.cbor)
            }
            return report(
                .progress(
                    encoding: .ur, recovered: progress.usefulPartCount,
                    total: progress.expectedPartCount ?? 0))
        } catch {
            if error.kind == .mixedSequence, switchSequence() {
                ur = URDecoder()
                return [.restarted(encoding: .ur)] + consumeUR(text)
            }
            return [.rejected("UR part: \(error)")]
        }
    }

    /// A Cashu token animated as Cashu wallets do it (NUT-16): BC-UR of type `bytes`, whose
    /// CBOR byte string is the token's text. Anything else under that type is not ours.
    static func cashuToken(type: String, cbor: [UInt8]) -> [UInt8]? {
        guard type == "bytes", let bytes = (try? CBOR.decode(cbor))?.bytesValue,
            bytes.starts(with: Array("cashu".utf8))
        else { return nil }
        return bytes
    }

    private mutating func report(_ progress: ScanEvent) -> [ScanEvent] {
        guard progress != lastProgress else { return [] }
        lastProgress = progress
        return [progress]
    }

    /// Each whole payload once: a looped sequence or a code held in view yields it again.
    private mutating func deliver(_ payload: [UInt8]) -> [ScanEvent] {
        guard delivered.insert(payload).inserted else { return [] }
        return [.payload(payload)]
    }
}
