import Camera
import Foundation
import NodeKit
import NodeTestSupport
import QR
import QRTransport
import Scanning
import Synchronization
import Tender
import TenderTestSupport
import Testing

/// The payee's camera as a payment source: real codes (libqrencode) drawn into real frames,
/// read by real zbar on the source's own thread; only the V4L2 device is played by a list of
/// frames here (the camera lab reads a real one: Tests/CameraLab/in-guest.sh, test 5).
@Suite struct CameraPaymentSourceTests {
    let node = Node()
    var world: World { node.world }

    @Test func aPaymentShownInALoopIsTakenOnceAndOtherCodesAreSkippedNamingThem() async throws {
        let bob = try node.wallet(world.bobKey)
        let (good, tampered) = paymentAndForgery(id: 1)
        let receipt = try bob.receive(
            paymentAndForgery(id: 2).good, key: world.bobKey, now: node.clock.now()
        ).receipt
        // The screen a payer's camera sees: an old receipt, a forged payment, then the real
        // one as an animated loop, played three times (as `pay --qr` does).
        var screen = try frames(of: receipt) + frames(of: tampered)
        for _ in 0..<3 { screen += try frames(of: good, fragment: 200) }
        let camera = PlayedCamera(screen, vanishAfter: true)
        let events = Events()
        let source = CameraPaymentSource(opening: camera.opener) { events.append($0) }
        let deliveries = try await takePayments(into: bob, from: source)

        #expect(deliveries == ["bad-payment-signature", "accepted"])
        #expect(try bob.incomingPayment(node.requestID(1))?.amount == 60)
        #expect(events.lines.first == "opened camera-under-test: 640x480")
        #expect(events.lines.contains("skipped a Tender receipt, not a payment"))
        // The forgery and the real payment, each once: three passes of the loop, one offer.
        #expect(events.lines.filter { $0 == "offered \(node.requestID(1).hex)" }.count == 2)
        #expect(camera.released)
    }

    @Test func aPaymentStillInViewAfterTheHoldIsTakenAgainAndGetsTheSameReceipt() async throws {
        let bob = try node.wallet(world.bobKey)
        let (good, _) = paymentAndForgery(id: 1)
        let camera = PlayedCamera(
            try frames(of: good) + blank() + (try frames(of: good)), vanishAfter: true)
        let source = CameraPaymentSource(opening: camera.opener, repeatAfter: .zero)
        let deliveries = try await takePayments(into: bob, from: source)
        #expect(deliveries == ["accepted", "repeated"])
        #expect(try bob.incomingPayments().count == 1)
    }

    @Test func aCameraThatGoesAwayEndsTheSourceWithItsReasonAndKeepsWhatWasTaken() async throws {
        let bob = try node.wallet(world.bobKey)
        let (good, _) = paymentAndForgery(id: 1)
        let camera = PlayedCamera(try frames(of: good), vanishAfter: true)
        let source = CameraPaymentSource(opening: camera.opener)
        #expect(try await takePayments(into: bob, from: source) == ["accepted"])
        #expect(try bob.incomingPayment(node.requestID(1)) != nil)
        #expect(camera.released)
    }

    /// The node's shutdown: `finish` stops a thread that is scanning an empty view, lets the
    /// camera go, and the payee waiting for a payment gets none. The test waits for the camera
    /// to say it was read to the end (no deadline of its own: a busy machine's test run may
    /// not give this task a thread for a minute; the time limit catches a hang).
    @Test(.timeLimit(.minutes(10))) func finishStopsTheScanningThreadAndLetsTheCameraGo()
        async throws
    {
        let camera = PlayedCamera(blank())
        let source = CameraPaymentSource(opening: camera.opener)
        let waiting = Task { try await source.nextPayment() }
        for await _ in camera.played {}
        await source.finish()
        #expect(camera.released)
        #expect(try await waiting.value == nil)
    }

    /// A Cashu token shown as a Cashu wallet shows one (its text in one code, then the same
    /// held in view) is passed on once, as its text, for the node's Cashu wallet; a Tender
    /// payment beside it is still taken.
    @Test func aCashuTokenShownIsPassedOnOnceAsItsText() async throws {
        let bob = try node.wallet(world.bobKey)
        let token = "cashuBo2FteBtodHRwOi8vbWludC50ZXN0OjMzMzhhdWNzYXQ"
        let code = try QREncoder.encode(segmentedText: token)
        let shown = try #require(VideoFrame.compose(code, width: 640, height: 480))
        let (good, _) = paymentAndForgery(id: 1)
        let camera = PlayedCamera(
            [shown, shown] + blank() + [shown] + (try frames(of: good)), vanishAfter: true)
        let events = Events()
        let source = CameraPaymentSource(opening: camera.opener) { events.append($0) }
        #expect(try await takePayments(into: bob, from: source) == ["accepted"])
        #expect(events.lines.filter { $0.hasPrefix("cashu") } == ["cashu \(token)"])
    }

    @Test func aMissingCameraIsNamed() async throws {
        let source = CameraPaymentSource(opening: CameraPaymentSource.webcam("/dev/video-none"))
        do {
            _ = try await source.nextPayment()
            Issue.record("a missing camera gave a payment")
        } catch {
            #expect(error.code == "not-found")
            #expect(error.description.contains("no camera at /dev/video-none"))
        }
        await source.finish()
        #expect(try await source.nextPayment() == nil)
    }

    // MARK: - Helpers

    /// A payment of 60 to Bob for request `id`, and the same with its signature broken.
    private func paymentAndForgery(id: UInt8) -> (good: [UInt8], tampered: [UInt8]) {
        let note = world.note(100, serial: id)
        let transfer = world.transfer(
            [note.coinID(in: world.domain)], [(world.bob, 60), (world.alice, 40)],
            by: world.aliceKey)
        let payment = world.payment(
            ProofBundle(notes: [note], transfers: [transfer]), to: world.bob, amount: 60,
            requestID: node.requestID(id))
        let good = Envelope(domain: world.domain, message: .payment(payment)).encoded()
        var tampered = good
        tampered[tampered.count - 20] ^= 1  // inside the payer's signature
        return (good, tampered)
    }

    /// `payload` as the frames of a screen showing it: one code, or an animated loop's pass.
    private func frames(of payload: [UInt8], fragment: Int? = nil) throws -> [GreyImage] {
        var code = try AnimatedCode(payload: payload, encoding: .binary, fragmentLength: fragment)
        return try (0..<code.frameCount).map { _ in
            try #require(VideoFrame.compose(try code.nextMatrix(), width: 640, height: 480))
        }
    }

    private func blank() -> [GreyImage] {
        [GreyImage(width: 640, height: 480, pixels: [UInt8](repeating: 255, count: 640 * 480))]
    }

    /// Runs the payee's exchange on `source` until its camera, having played every frame,
    /// goes away (the exchange ends with the source's reason, an I/O error naming it): the
    /// source hands over every payment it read before it ends, so the outcomes are all there
    /// however fast the machine is. Then stops it as the node does at shutdown; the outcomes
    /// in order.
    private func takePayments(
        into wallet: Wallet, from source: CameraPaymentSource
    ) async throws -> [String] {
        let deliveries = Deliveries()
        do {
            try await PaymentExchange(wallet: wallet, clock: node.clock).receive(
                from: source, key: world.bobKey, once: false
            ) { deliveries.append($0) }
            Issue.record("the source outlived its camera")
        } catch {
            #expect(error.code == "io")
            #expect(error.description.contains("camera-under-test went away"), "\(error)")
        }
        await source.finish()
        return deliveries.outcomes
    }
}

/// A camera pointed at a screen that plays `frames` once, then shows nothing (or goes away).
private final class PlayedCamera: Sendable {
    private let frames: [GreyImage]
    private let vanishAfter: Bool
    private let releasedFlag = Mutex(false)
    /// Ends once every frame was read (the reader asked for one more).
    let played: AsyncStream<Void>
    private let playedEnd: AsyncStream<Void>.Continuation

    init(_ frames: [GreyImage], vanishAfter: Bool = false) {
        self.frames = frames
        self.vanishAfter = vanishAfter
        (played, playedEnd) = AsyncStream<Void>.makeStream()
    }

    /// The reader was let go (on the scanning thread, before `finish` returned).
    var released: Bool { releasedFlag.withLock { $0 } }

    var opener: CameraPaymentSource.Opener {
        { () throws(CameraError) in (Reader(self), "camera-under-test: 640x480") }
    }

    final class Reader: FrameReader {
        let camera: PlayedCamera
        var next = 0

        init(_ camera: PlayedCamera) { self.camera = camera }
        deinit { camera.releasedFlag.withLock { $0 = true } }

        func nextFrame(timeout: Double) throws(CameraError) -> GreyImage? {
            guard next < camera.frames.count else {
                camera.playedEnd.finish()
                if camera.vanishAfter {
                    throw CameraError(.vanished, "camera camera-under-test went away mid-scan")
                }
                Thread.sleep(forTimeInterval: 0.01)  // a camera's wait for a frame
                return nil
            }
            next += 1
            return camera.frames[next - 1]
        }
    }
}

/// What the source told, as lines.
private final class Events: Sendable {
    private let list = Mutex<[String]>([])

    func append(_ event: CameraPaymentSource.Event) {
        let line =
            switch event {
            case .opened(let camera): "opened \(camera)"
            case .offered(let requestID): "offered \(requestID.hex)"
            case .cashuToken(let text): "cashu \(text)"
            case .skipped(let why): "skipped \(why)"
            }
        list.withLock { $0.append(line) }
    }

    var lines: [String] { list.withLock { $0 } }
}

extension Deliveries {
    var outcomes: [String] {
        items.map { delivery in
            switch delivery {
            case .accepted(let received): received.repeated ? "repeated" : "accepted"
            case .refused(let error): error.code
            }
        }
    }
}
