import QR

/// Frames in, events out: the decoders find the codes in each frame, the assembler makes
/// payloads. One owner (it holds the zbar scanner); a scanning loop keeps it for its whole run.
public final class ScanPipeline {
    private let zxing = ZXingScanner()
    private let zxingGlobal = ZXingScanner(binarizer: .globalHistogram)
    private let zbar = QRScanner()
    private var assembler = ScanAssembler()
    public private(set) var framesScanned = 0
    /// Which decoders read the frames.
    public let decoders: QRDecoders
    /// Whether frames zbar finds nothing in get a second look (see `codes(in:)`).
    public let rescue: Bool

    public init(decoders: QRDecoders = .both, rescue: Bool = true) {
        self.decoders = decoders
        self.rescue = rescue
    }

    public func process(_ frame: GreyImage) -> [ScanEvent] {
        framesScanned += 1
        var events: [ScanEvent] = []
        for code in codes(in: frame) { events += assembler.consume(code) }
        return events
    }

    /// Looks until one finds a code: zxing with its local threshold, zxing with one threshold
    /// for the frame, zbar, and zbar on the frame halved. zxing reads keystone, blur and noise zbar
    /// misses, at four times zbar's rate; one threshold for the frame, and zbar, read soft and
    /// low-contrast frames the local threshold loses; averaging 2×2 blocks removes the sensor
    /// noise and compression blocks that break zbar's threshold (Docs/BENCHMARKS.md, the QR
    /// corpora). Frames with a code rarely get past the first look.
    private func codes(in frame: GreyImage) -> [[UInt8]] {
        if decoders != .zbar {
            var found = zxing.scan(frame)
            if found.isEmpty { found = zxingGlobal.scan(frame) }
            guard found.isEmpty, decoders == .both else { return found }
        }
        let found = zbar.scan(frame)
        guard found.isEmpty, rescue, let half = frame.halved() else { return found }
        return zbar.scan(half)
    }
}

/// The QR decoders a scan reads frames with.
public enum QRDecoders: String, Sendable, CaseIterable {
    /// zxing-cpp first, zbar on the frames it finds nothing in: reads what either reads.
    case both
    /// zxing-cpp alone (its local threshold, then one for the whole frame).
    case zxing
    /// zbar alone, with its second look at a halved frame.
    case zbar
}
