import Bluetooth
import NodeKit
import QRTransport
import Secp256k1

/// What the node reaches the world through: Bluetooth, a camera, the chains. `tender node`
/// runs on the real ones (`live`); the runtime's tests on in-memory ones.
public struct NodePorts: Sendable {
    /// Opens Tender's payee service on the first adapter (started by the node), or throws
    /// `NearbyDeviceAbsent`.
    public var nearbyPayee: @Sendable (NearbyPayeeSetup) async throws -> any NearbyPayeePort
    /// The payments a camera device shows; its events said as they happen.
    public var camera:
        @Sendable (String, @escaping @Sendable (CameraPaymentSource.Event) -> Void) ->
            any PaymentSource
    /// The sync loop's pass, signed with the wallet key; nil: the chains of the registry,
    /// over HTTP (`ChainPass`).
    public var settlement: (@Sendable (PrivateKey) -> SettlementLoop.Pass)?

    public init(
        nearbyPayee: @escaping @Sendable (NearbyPayeeSetup) async throws -> any NearbyPayeePort,
        camera:
            @escaping @Sendable (
                String, @escaping @Sendable (CameraPaymentSource.Event) -> Void
            ) -> any PaymentSource,
        settlement: (@Sendable (PrivateKey) -> SettlementLoop.Pass)?
    ) {
        self.nearbyPayee = nearbyPayee
        self.camera = camera
        self.settlement = settlement
    }

    /// BlueZ, V4L2 cameras and the registry's chains.
    public static let live = NodePorts(
        nearbyPayee: { try await NearbyPayee.open($0) },
        camera: { device, events in
            CameraPaymentSource(opening: CameraPaymentSource.webcam(device), events: events)
        },
        settlement: nil)
}
