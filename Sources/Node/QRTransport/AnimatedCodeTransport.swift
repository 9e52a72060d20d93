import Camera
import NodeKit
import QR
import Scanning

/// A payment shown as a loop of QR codes (one code, or an animated fountain-coded sequence a
/// receiver can join anywhere), with an optional camera watching for the payee's receipt code.
///
/// Frames go to `display` at `frameInterval`; the loop plays until a receipt is taken (or the
/// exchange gives up), or, without a camera, `loops` times. An actor: it owns the camera's zbar
/// handle and the scanner, which must stay on one thread of control.
public actor AnimatedCodeTransport: PaymentTransport {
    /// Where the codes go: a terminal, a window, a video output.
    public typealias Display = @Sendable (_ code: QRMatrix, _ frame: Int, _ frames: Int) -> Void

    private let encoding: AnimatedCode.Encoding
    private let fragmentLength: Int?
    private let cameraDevice: String?
    private let loops: Int
    private let frameInterval: Duration
    private let display: Display
    /// Renders every code of `loops` passes for another output (raw frames for a video output) while
    /// the payment can still be cancelled; what it returns writes them when the payment is sent.
    public typealias PassRecorder =
        @Sendable ([QRMatrix]) throws(NodeError) -> @Sendable () throws(NodeError) -> Void
    private let recordPass: PassRecorder?
    private var writePass: (@Sendable () throws(NodeError) -> Void)?

    private var code: AnimatedCode?
    private var pass: [QRMatrix] = []
    /// What `recordPass` records: `loops` passes of codes.
    private var clip: [QRMatrix] = []
    private var webcam: Webcam?
    private var player: Task<Void, Never>?
    private let pipeline = ScanPipeline()

    public init(
        encoding: AnimatedCode.Encoding = .binary, fragmentLength: Int? = nil,
        camera: String? = nil, loops: Int = 3, frameInterval: Duration = .milliseconds(100),
        display: @escaping Display, recordPass: PassRecorder? = nil
    ) {
        self.encoding = encoding
        self.fragmentLength = fragmentLength
        self.cameraDevice = camera
        self.loops = max(1, loops)
        self.frameInterval = frameInterval
        self.display = display
        self.recordPass = recordPass
    }

    /// Opens the camera and renders every code before anything is handed over: a missing
    /// camera or a payload that cannot be shown costs nothing.
    public func prepare(_ envelope: [UInt8]) async throws(NodeError) {
        do {
            var code = try AnimatedCode(
                payload: envelope, encoding: encoding, fragmentLength: fragmentLength)
            pass = try (0..<code.frameCount).map { _ in try code.nextMatrix() }
            // A recorded clip plays in a loop on a video output: after the first pass come
            // the fountain's mixed parts, so a camera whose rate keeps it on the same codes of
            // a short loop still sees new ones.
            if recordPass != nil {
                clip =
                    try pass
                    + (0..<(code.frameCount * (loops - 1))).map { _ in
                        try code.nextMatrix()
                    }
            }
            self.code = code
        } catch { throw NodeError(.usage("the payment cannot be shown as codes: \(error)")) }
        writePass = try recordPass?(clip)
        if let cameraDevice {
            do { webcam = try Webcam(device: cameraDevice) } catch {
                throw NodeError(error)
            }
        }
    }

    public func send(_ envelope: [UInt8]) async throws(TransportFailure) {
        do { try writePass?() } catch { throw .mayHaveSent(error) }
        let frames = pass
        let (display, interval) = (self.display, frameInterval)
        let passes = webcam == nil ? loops : Int.max
        player = Task {
            for index in 0..<(frames.count * min(passes, Int.max / frames.count)) {
                if Task.isCancelled { return }
                display(frames[index % frames.count], index % frames.count + 1, frames.count)
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// Without a camera: waits for the loop to finish playing, then nil (the payee's receipt
    /// comes back some other way). With one: the next whole payload the camera sees.
    public func nextReceipt() async throws(NodeError) -> [UInt8]? {
        guard let webcam else {
            await player?.value
            return nil
        }
        while !Task.isCancelled {
            let frame: GreyImage?
            do { frame = try webcam.nextFrame(timeout: 0.05) } catch { throw NodeError(error) }
            if let frame {
                for case .payload(let bytes) in pipeline.process(frame) { return bytes }
            }
            await Task.yield()
        }
        return nil
    }

    public func finish() async {
        player?.cancel()
        await player?.value
        player = nil
        webcam = nil
    }
}

extension NodeError {
    /// A camera's failure in the node's terms.
    public init(_ error: CameraError) {
        switch error.kind {
        case .noDevice: self.init(.missing(error.message))
        case .permissionDenied: self.init(.permission(error.message))
        case .notAVideoDevice: self.init(.usage(error.message))
        case .openFailed, .vanished, .badStream: self.init(.io(error.message))
        }
    }
}
