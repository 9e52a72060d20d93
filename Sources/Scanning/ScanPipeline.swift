import QR

/// Frames in, events out: zbar finds the codes in each frame, the assembler makes payloads.
/// One owner (it holds the zbar scanner); a scanning loop keeps it for its whole run.
public final class ScanPipeline {
    private let scanner = QRScanner()
    private var assembler = ScanAssembler()
    public private(set) var framesScanned = 0
    public private(set) var codesRead = 0

    public init() {}

    public func process(_ frame: GreyImage) -> [ScanEvent] {
        framesScanned += 1
        var events: [ScanEvent] = []
        for code in scanner.scan(frame) {
            codesRead += 1
            events += assembler.consume(code)
        }
        return events
    }
}
