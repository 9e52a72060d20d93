import QR

/// Frames in, events out: zbar finds the codes in each frame, the assembler makes payloads.
/// One owner (it holds the zbar scanner); a scanning loop keeps it for its whole run.
public final class ScanPipeline {
    private let scanner = QRScanner()
    private var assembler = ScanAssembler()
    public private(set) var framesScanned = 0
    /// Whether frames zbar finds nothing in get a second look (see `codes(in:)`).
    public let rescue: Bool

    public init(rescue: Bool = true) { self.rescue = rescue }

    public func process(_ frame: GreyImage) -> [ScanEvent] {
        framesScanned += 1
        var events: [ScanEvent] = []
        for code in codes(in: frame) { events += assembler.consume(code) }
        return events
    }

    /// zbar's reading of the frame; when it finds nothing, its reading of the frame halved:
    /// averaging 2×2 blocks removes the sensor noise and compression blocks that break zbar's
    /// local threshold (Docs/BENCHMARKS.md, video corpus: noise that zbar alone never reads).
    private func codes(in frame: GreyImage) -> [[UInt8]] {
        let found = scanner.scan(frame)
        guard found.isEmpty, rescue, let half = frame.halved() else { return found }
        return scanner.scan(half)
    }
}
