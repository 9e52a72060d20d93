import Bluetooth
import Foundation
import Logging
import NodeHost
import NodeKit
import NodeRuntime
import QRTransport
import Tender
import TenderTestSupport
import Testing

/// The node in process, its devices in memory: payments taken by each payee service, and one
/// service that cannot start while the others serve.
@Suite(.timeLimit(.minutes(10))) struct NodeTests {
    /// A node of `home` with the API on a Unix socket in its folder and no sync loop.
    func node(
        _ home: RuntimeHome, bluetooth: NodeConfiguration.Switch, camera: String? = nil,
        ports: NodePorts
    ) throws -> Node {
        var settings = NodeConfiguration()
        settings.listen = .unix(path: home.folder.file("api.sock"))
        settings.syncEnabled = false
        settings.bluetooth = bluetooth
        settings.camera = camera
        return try Node(
            host: home.host, settings: settings, token: "test-token-0123456789abcdef",
            logger: Logger(label: "test"), ports: ports)
    }

    static func noCamera(
        _ device: String, _ events: @escaping @Sendable (CameraPaymentSource.Event) -> Void
    ) -> any PaymentSource {
        FakePayeeMedium()
    }

    /// Waits until the node says `service` is in a status that starts with `prefix`.
    func status(_ node: Node, _ service: String, startsWith prefix: String) async -> String? {
        let deadline = ContinuousClock.now + .generousWait
        while ContinuousClock.now < deadline {
            if let status = await node.state.services[service]?.description,
                status.hasPrefix(prefix)
            {
                return status
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    @Test func aPaymentOverTheAirIsAcceptedAndItsRequestNoLongerAdvertised() async throws {
        let home = try RuntimeHome()
        let medium = FakePayeeMedium()
        let ports = NodePorts(
            nearbyPayee: { setup in
                setup.onEvent(.ready(adapter: "hci9", address: "00:00:00:00:00:09"))
                return medium
            }, camera: Self.noCamera, settlement: nil)
        let node = try node(home, bluetooth: .on, ports: ports)
        let running = Task { try await node.run() }
        defer { running.cancel() }
        #expect(await medium.seen.awaitNext(.started))
        #expect(await status(node, "bluetooth", startsWith: "ready on hci9") != nil)

        // The API's "Charge" goes through the node's one offered request.
        let wallet = try home.home()
        let request = try wallet.issueRequest(
            amount: 700, asset: .zero, memo: "", lifetime: 600,
            sessionKey: await node.offered.sessionKey(), now: home.world.now)
        #expect(request.sessionKey != nil)
        await node.offered.issued(request)
        #expect(await medium.seen.awaitNext(.offered(request.id)))

        await medium.deliver(try home.payment(700, id: 0x21, for: request.id))
        #expect(await medium.seen.awaitNext(.replied))
        #expect(try wallet.incomingPayment(request.id) != nil)
        #expect(await medium.seen.awaitNext(.withdrawn))
        #expect(await node.offered.current == nil)
    }

    @Test func aPaymentShownToTheCameraIsAccepted() async throws {
        let home = try RuntimeHome()
        let opened = AsyncStream.makeStream(of: Void.self)
        let camera = FakePayeeMedium()
        let ports = NodePorts(
            nearbyPayee: { _ in throw NearbyDeviceAbsent("no adapter in this test") },
            camera: { device, events in
                events(.opened("\(device) (in memory)"))
                opened.continuation.yield()
                return camera
            }, settlement: nil)
        let node = try node(home, bluetooth: .off, camera: "/dev/video9", ports: ports)
        let running = Task { try await node.run() }
        defer { running.cancel() }
        #expect(await status(node, "camera", startsWith: "scanning /dev/video9") != nil)
        await camera.deliver(try home.payment(400, id: 0x31))
        #expect(await camera.seen.awaitNext(.replied))
        #expect(try home.home().incomingPayment(home.requestID(0x31))?.amount == 400)
    }

    @Test func aPayeeServiceThatCannotStartStandsDownWhileTheOthersServe() async throws {
        let home = try RuntimeHome()
        let camera = FakePayeeMedium()
        let ports = NodePorts(
            nearbyPayee: { _ in throw NodeError(.io("the adapter refused the service")) },
            camera: { _, events in
                events(.opened("/dev/video9 (in memory)"))
                return camera
            }, settlement: nil)
        let node = try node(home, bluetooth: .auto, camera: "/dev/video9", ports: ports)
        let running = Task { try await node.run() }
        defer { running.cancel() }
        let stopped = await status(node, "bluetooth", startsWith: "stopped")
        #expect(stopped == "stopped: the adapter refused the service")
        await camera.deliver(try home.payment(250, id: 0x41))
        #expect(await camera.seen.awaitNext(.replied))
        #expect(try home.home().incomingPayment(home.requestID(0x41)) != nil)
        #expect(
            await node.state.services["bluetooth"] == .stopped("the adapter refused the service"))
    }

    @Test func anAbsentAdapterIsWaitedForInAutoMode() async throws {
        let home = try RuntimeHome()
        let ports = NodePorts(
            nearbyPayee: { _ in throw NearbyDeviceAbsent("no Bluetooth adapter") },
            camera: Self.noCamera, settlement: nil)
        let node = try node(home, bluetooth: .auto, ports: ports)
        let running = Task { try await node.run() }
        defer { running.cancel() }
        #expect(
            await status(node, "bluetooth", startsWith: "waiting")
                == "waiting for an adapter: no Bluetooth adapter")
        // Without an adapter the node makes no session key (nor asks for the wallet key).
        let sessionKey = home.host.directory.path + "/" + DataDirectory.Names.sessionKey
        #expect(!FileManager.default.fileExists(atPath: sessionKey))
    }
}
