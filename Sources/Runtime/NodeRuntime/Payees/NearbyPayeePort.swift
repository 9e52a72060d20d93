import BlueZ
import Bluetooth
import NodeKit
import Noise
import Tender

/// The payee's side of Bluetooth LE as the node's runtime uses it: Tender's GATT service
/// published, a request advertised or none, payments taken one at a time. `NearbyPayee` is
/// the real one; the runtime's tests use an in-memory one.
public protocol NearbyPayeePort: PaymentSource {
    func start() async throws
    /// Advertises `request` from now on (in place of any other).
    func offer(_ request: PaymentRequest) async throws
    /// Advertises nothing; payers already connected are still served.
    func withdraw() async
}

/// What a payee service is opened with.
public struct NearbyPayeeSetup: Sendable {
    /// The Noise static key payers open their sessions with: loaded (made, the first time)
    /// only once an adapter is found, so a node without Bluetooth writes no session key.
    public let staticKey: @Sendable () throws -> NoisePrivateKey
    /// The advertised name.
    public let localName: String
    /// Double-spend evidence to hand each payer.
    public let evidence: @Sendable () -> [[UInt8]]
    /// Evidence a payer handed over.
    public let onEvidence: @Sendable ([[UInt8]]) -> Void
    public let onEvent: @Sendable (NearbyPayee.Event) -> Void
    /// How Cashu tokens offered over the air are taken; nil: refused.
    public var cashu: CashuTaking? = nil
}

/// There is no adapter, bluetoothd or system bus (yet): the node's `auto` payee looks again
/// later.
public struct NearbyDeviceAbsent: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension NearbyPayee: NearbyPayeePort {
    public func offer(_ request: PaymentRequest) async throws {
        try await offer(Offering(request))
    }

    /// Tender's payee on the first adapter, or `NearbyDeviceAbsent`.
    public static func open(_ setup: NearbyPayeeSetup) async throws -> NearbyPayee {
        let bluetooth: BluetoothSession
        let adapter: Adapter
        do {
            bluetooth = try await BluetoothSession.open()
            adapter = try await bluetooth.adapter(nil, wait: .seconds(2))
        } catch let error
            where [.adapterNotFound, .bluetoothdNotRunning, .noSystemBus].contains(error.kind)
        {
            throw NearbyDeviceAbsent(error.description)
        }
        return try NearbyPayee(
            bluetooth: bluetooth, adapter: adapter, staticKey: try setup.staticKey(), offering: nil,
            localName: setup.localName, evidence: setup.evidence, onEvidence: setup.onEvidence,
            onEvent: setup.onEvent, cashu: setup.cashu)
    }
}
