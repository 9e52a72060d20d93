import Fountain

/// What scanning produced, in order.
public enum ScanEvent: Equatable, Sendable {
    /// A whole payload: one code's bytes, or an animated sequence once assembled.
    case payload([UInt8])
    /// An animated sequence advanced: fragments recovered of the total.
    case progress(encoding: AnimatedEncoding, recovered: Int, total: Int)
    /// A code that was read but refused (corrupt part, another sequence, …), with the reason.
    case rejected(String)
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

    public init() {}

    /// Feeds the payloads read from one video frame or image.
    public mutating func consume(_ code: [UInt8]) -> [ScanEvent] {
        guard code != lastCode else { return [] }  // the same code in consecutive frames
        lastCode = code
        if code.starts(with: FrameFormat.magic) { return consumeFrame(code) }
        if let text = String(validating: code, as: UTF8.self), text.lowercased().hasPrefix("ur:") {
            return consumeUR(text)
        }
        return deliver(code)
    }

    private mutating func consumeFrame(_ frame: [UInt8]) -> [ScanEvent] {
        do {
            let progress = try frames.receive(frame)
            if let message = progress.complete {
                frames = FrameDecoder()
                return deliver(message)
            }
            return report(
                .progress(
                    encoding: .binaryFrames, recovered: progress.usefulPartCount,
                    total: progress.expectedFrameCount ?? 0))
        } catch { return [.rejected("binary frame: \(error)")] }
    }

    private mutating func consumeUR(_ text: String) -> [ScanEvent] {
        do {
            let progress = try ur.receive(text)
            if let complete = progress.complete {
                ur = URDecoder()
                guard complete.type == Self.urType else {
                    return [.rejected("a ur:\(complete.type) code is not a Tender payload")]
                }
                return deliver(complete.cbor)
            }
            return report(
                .progress(
                    encoding: .ur, recovered: progress.usefulPartCount,
                    total: progress.expectedPartCount ?? 0))
        } catch { return [.rejected("UR part: \(error)")] }
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
