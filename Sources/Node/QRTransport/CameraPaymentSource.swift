import Camera
import Foundation
import NodeKit
import PaymentCodes
import QR
import Scanning
import Synchronization
import Tender

/// Frames for a scanning thread: opened on it, read on it, released on it.
public protocol FrameReader: AnyObject {
    /// The next frame, or nil when none came within `timeout` seconds.
    func nextFrame(timeout: Double) throws(CameraError) -> GreyImage?
}

extension Webcam: FrameReader {}

/// A payee's camera as a source of payments: a thread of its own reads frames (zbar's calls
/// block, and a node must not lose a worker of its pool to them), assembles codes, and passes
/// on each payment envelope it sees; a request, a receipt or any other code in view is
/// skipped. A payment held in view (the payer's loop plays until they have the receipt) is
/// passed on once, then again only after `repeatAfter`: receiving it again returns the same
/// receipt, so a payment refused for a passing reason is tried again while it is shown.
///
/// The receipt is not shown here: the wallet keeps it (the node serves it as a code, and the
/// point-of-sale page shows it to the payer).
public actor CameraPaymentSource: PaymentSource {
    /// What the scanning thread saw, for the log and the node's status.
    public enum Event: Sendable {
        /// The camera is open: its device, size and frame rate in one line.
        case opened(String)
        /// A whole payment for this request was read; it is being checked.
        case offered(requestID: Bytes32)
        /// A Cashu token was read (Docs/CASHU.md): its text, for the node's Cashu wallet.
        case cashuToken(String)
        /// A code was read that is not a payment, or not whole: why.
        case skipped(String)
    }

    /// Opens the frame source on the scanning thread; says what it opened.
    public typealias Opener = @Sendable () throws(CameraError) -> (any FrameReader, String)

    private let open: Opener
    private let events: @Sendable (Event) -> Void
    private let repeatAfter: Duration
    private var payments: AsyncThrowingStream<[UInt8], any Error>.AsyncIterator?
    private var stopped: ScanStop?
    private var ended: AsyncStream<Void>?
    private var finished = false

    public init(
        opening open: @escaping Opener, repeatAfter: Duration = .seconds(30),
        events: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.open = open
        self.repeatAfter = repeatAfter
        self.events = events
    }

    // A source dropped without `finish` must not leave its thread scanning with the camera.
    deinit { stopped?.stop() }

    /// A V4L2 camera at `device` (e.g. `/dev/video0`), at the size and rate it offers first.
    public static func webcam(_ device: String) -> Opener {
        { () throws(CameraError) in
            let webcam = try Webcam(device: device)
            return (webcam, webcam.summary)
        }
    }

    /// The next payment the camera sees; nil once `finish` stopped it. A camera that cannot
    /// be opened, or goes away, throws (`.missing`, `.permission`, `.io`) naming it.
    public func nextPayment() async throws(NodeError) -> [UInt8]? {
        if finished { return nil }
        if payments == nil { start() }
        guard var iterator = payments else { return nil }
        do {
            let next = try await iterator.next(isolation: self)
            payments = iterator
            return next
        } catch let error as CameraError {
            throw NodeError(error)
        } catch {
            throw NodeError(.io("the camera: \(error)"))
        }
    }

    /// The wallet has stored the receipt; nothing goes back through a camera.
    public func reply(_ receipt: [UInt8]) async throws(NodeError) {}

    /// Stops the scanning thread and waits until it has let the camera go.
    public func finish() async {
        finished = true
        stopped?.stop()
        if let ended { for await _ in ended {} }
        payments = nil
        ended = nil
    }

    private func start() {
        let (payments, paying) = AsyncThrowingStream<[UInt8], any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(4))
        let (ended, end) = AsyncStream<Void>.makeStream()
        let stop = ScanStop()
        self.payments = payments.makeAsyncIterator()
        self.ended = ended
        self.stopped = stop
        paying.onTermination = { _ in stop.stop() }
        let (open, events, repeatAfter) = (self.open, self.events, self.repeatAfter)
        let thread = Thread {
            defer { end.finish() }
            do {
                try Self.scan(
                    open, until: stop, repeatAfter: repeatAfter, events: events,
                    pass: { payload in
                        if case .enqueued = paying.yield(payload) { return true }
                        return false
                    })
                paying.finish()
            } catch {
                paying.finish(throwing: error)
            }
        }
        thread.name = "tender-camera"
        thread.start()
    }

    /// The scanning thread's loop: frames in, payment envelopes out.
    private static func scan(
        _ open: Opener, until stop: ScanStop, repeatAfter: Duration,
        events: (Event) -> Void, pass: ([UInt8]) -> Bool
    ) throws(CameraError) {
        let (reader, description) = try open()
        events(.opened(description))
        var pipeline = ScanPipeline()
        var passed = RecentPayloads(holdFor: repeatAfter)
        while !stop.isStopped {
            guard let frame = try reader.nextFrame(timeout: 0.25) else { continue }
            for event in pipeline.process(frame) {
                switch event {
                case .payload(let bytes):
                    // A fresh pipeline: the old one would never hand this payload over again,
                    // and its memory of payloads would grow all day.
                    pipeline = ScanPipeline()
                    switch PaymentCode.classify(bytes) {
                    case .payment(let requestID):
                        guard passed.admit(bytes, now: .now) else { continue }
                        events(.offered(requestID: requestID))
                        // Not taken (the exchange is behind): read it again when next seen.
                        if !pass(bytes) { passed.forget(bytes) }
                    case .cashuToken(let text):
                        // Held in view until the payer sees the till take it: taken once.
                        guard passed.admit(bytes, now: .now) else { continue }
                        events(.cashuToken(text))
                    case .notAPayment(let why):
                        events(.skipped(why))
                    }
                case .rejected(let why): events(.skipped(why))
                case .progress, .restarted: break
                }
            }
        }
    }
}

/// What a whole scanned code is to a payee.
enum PaymentCode: Equatable {
    /// A payment envelope (its request's id, read before any check): the wallet checks it.
    case payment(requestID: Bytes32)
    /// A Cashu token's text (`cashuA…`, `cashuB…`, with or without `cashu:`), as shown by a
    /// Cashu wallet in one code or animated (BC-UR): the Cashu wallet checks it.
    case cashuToken(String)
    case notAPayment(String)

    static func classify(_ bytes: [UInt8]) -> PaymentCode {
        if bytes.starts(with: Array("cashu".utf8)) {
            return .cashuToken(String(decoding: bytes, as: UTF8.self))
        }
        guard bytes.starts(with: ScannedCode.payloadPrefix) else {
            return .notAPayment("a code that is not a Tender payload")
        }
        // Only decoded to tell a payment from the other kinds; the wallet verifies it all.
        let envelope: Envelope
        do { envelope = try Envelope.decode(bytes) } catch {
            return .notAPayment("a Tender code that does not decode: \(error)")
        }
        guard case .payment(let payment) = envelope.message else {
            return .notAPayment("a Tender \(envelope.message.kind), not a payment")
        }
        return .payment(requestID: payment.requestID)
    }
}

/// The payloads passed on lately, so one held in view is not passed on every time it is read.
struct RecentPayloads {
    let holdFor: Duration
    private var passed: [(payload: [UInt8], at: ContinuousClock.Instant)] = []

    init(holdFor: Duration) { self.holdFor = holdFor }

    /// True when `payload` was not passed on within `holdFor` of `now` (it is recorded).
    mutating func admit(_ payload: [UInt8], now: ContinuousClock.Instant) -> Bool {
        passed.removeAll { now - $0.at >= holdFor }
        guard !passed.contains(where: { $0.payload == payload }) else { return false }
        passed.append((payload, now))
        return true
    }

    mutating func forget(_ payload: [UInt8]) { passed.removeAll { $0.payload == payload } }
}

/// Tells the scanning thread to stop; it looks between frames.
final class ScanStop: Sendable {
    private let flag = Atomic<Bool>(false)

    func stop() { flag.store(true, ordering: .relaxed) }
    var isStopped: Bool { flag.load(ordering: .relaxed) }
}
