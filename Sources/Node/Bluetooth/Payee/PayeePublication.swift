import BlueZ
import DBus

/// What the payee shows BlueZ: Tender's GATT application registered on the adapter and, while
/// a request is offered, the advertisement carrying its tag. Each registration is a handle
/// that unregisters; publishing again (bluetoothd restarted) undoes the old one first.
actor PayeePublication {
    let adapter: Adapter
    private let bluetooth: BluetoothSession
    private let localName: String
    private var application: GattApplication?
    private var service: Registration?
    private var advertisement: Registration?

    init(bluetooth: BluetoothSession, adapter: Adapter, localName: String) {
        self.bluetooth = bluetooth
        self.adapter = adapter
        self.localName = localName
    }

    /// Exports the application (its info characteristic read through `info`, what payers
    /// write to rx taken by `links`, which then serves on it), registers it with the adapter
    /// and advertises `tag` when there is one.
    func publish(
        links: PeripheralLinks, info: @escaping @Sendable () async -> [UInt8], tag: [UInt8]?,
        onMessage: @escaping PeripheralLinks.MessageHandler,
        onClosed: @escaping @Sendable (UInt32) async -> Void
    ) async throws(BluetoothError) {
        try await adapter.powerOn()
        let application = GattApplication(
            root: ObjectPath(checked: "/tender/payee"), service: TenderGATT.service,
            characteristics: [
                .init(uuid: TenderGATT.info, flags: ["read"], onRead: { _ in await info() }),
                .init(
                    uuid: TenderGATT.rx, flags: ["write", "write-without-response"],
                    onWrite: { value, request in await links.take(value, from: request.device) }),
                .init(uuid: TenderGATT.tx, flags: ["notify"]),
            ])
        do { try await application.export(on: bluetooth.bus) } catch {
            throw BluetoothError(error, doing: "exporting the payment service")
        }
        self.application = application
        await links.start(application: application, onMessage: onMessage, onClosed: onClosed)
        service = try await adapter.register(application)
        try await advertise(tag)
    }

    /// Advertises `tag` (nil: no advertisement, the service stays for payers connected; empty:
    /// the service with no tag).
    func advertise(_ tag: [UInt8]?) async throws(BluetoothError) {
        // The old advertisement unregistered first: the new one takes the same path.
        await advertisement?.cancelAndWait()
        advertisement = nil
        guard let tag else { return }
        advertisement = try await adapter.advertise(
            Advertisement(
                serviceUUIDs: [TenderGATT.service], localName: localName,
                manufacturerData: tag.isEmpty ? [:] : [TenderGATT.tagCompany: tag]),
            at: ObjectPath(checked: "/tender/payee_advertisement"))
    }

    /// Every registration undone, `links` stopped, the application unexported.
    func unpublish(links: PeripheralLinks) async {
        await advertisement?.cancelAndWait()
        advertisement = nil
        await service?.cancelAndWait()
        service = nil
        await links.stop()
        await application?.unexport()
        application = nil
    }
}
