import BlueZ
import Bluetooth
import DBus
import Link

// The windowed link over GATT (Bluetooth module) on real bluetoothd: the peripheral answers
// every message with its length; the central sends one small and one large message and
// prints the large one's rate ("ble-probe: link RATE kB/s").

/// The link's settings: the standard ones, or a window (first window, first timeout) to
/// measure.
func probeConfiguration() -> LinkConfiguration {
    var configuration = LinkConfiguration.standard
    if let window = option("--window").flatMap(Int.init) { configuration.window = window }
    if let initial = option("--initial-window").flatMap(Int.init) {
        configuration.initialWindow = initial
    }
    if let milliseconds = option("--rto").flatMap(Int.init) {
        configuration.retransmissionTimeout = .milliseconds(milliseconds)
        configuration.minRetransmissionTimeout = .milliseconds(milliseconds)
    }
    return configuration
}

func runLinkPeripheral() async throws {
    let session = try await BluetoothSession.open()
    let adapter = try await session.adapter(adapterName)
    try await adapter.powerOn()
    let links = try PeripheralLinks(configuration: probeConfiguration())
    let application = GattApplication(
        root: ObjectPath(checked: "/tender/linkprobe"), service: TenderGATT.service,
        characteristics: [
            .init(
                uuid: TenderGATT.rx, flags: ["write", "write-without-response"],
                onWrite: { value, _ in await links.take(value) }),
            .init(uuid: TenderGATT.tx, flags: ["notify"]),
        ])
    try await application.export(on: session.bus)
    await links.start(
        application: application,
        onMessage: { link, message in
            try? await links.send(Array("got \(message.count)".utf8), on: link)
        },
        onClosed: { _ in })
    let registration = try await adapter.register(application)
    let advertising = try await adapter.advertise(
        Advertisement(serviceUUIDs: [TenderGATT.service], localName: "tender-link"),
        at: ObjectPath(checked: "/tender/linkprobe_advertisement"))
    say("PROBE_READY")
    try await Task.sleep(for: .seconds(3600))
    registration.cancel()
    advertising.cancel()
}

/// Finds the first device advertising Tender's service and connects to it (the LE link).
func connectToFirstPayee(_ session: BluetoothSession) async throws -> NearbyDevice {
    let adapter = try await session.adapter(adapterName)
    try await adapter.powerOn()
    var found: NearbyDevice?
    for await nearby in try await adapter.discover(service: TenderGATT.service) {
        found = nearby
        break
    }
    guard let nearby = found else { fail("discovery ended without the payee") }
    try await nearby.device.connect()
    return nearby
}

func runLinkCentral() async throws {
    let session = try await BluetoothSession.open()
    let nearby = try await connectToFirstPayee(session)
    try await nearby.device.servicesResolved(timeout: .seconds(30))
    let rx = try await nearby.device.characteristic(TenderGATT.rx, of: TenderGATT.service)
    let tx = try await nearby.device.characteristic(TenderGATT.tx, of: TenderGATT.service)
    let link = try await CentralLink.open(rx: rx, tx: tx, configuration: probeConfiguration())
    say("link open (acquired socket: \(await link.usesAcquiredSocket))")
    try await link.send(Array("hello".utf8))
    let first = try await link.receive(timeout: .seconds(10))
    guard first == Array("got 5".utf8) else { fail("wrong answer \(first)") }
    let total = Int(option("--bytes") ?? "50000") ?? 50_000
    let message = (0..<total).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let began = ContinuousClock.now
    try await link.send(message)
    let elapsed = ContinuousClock.now - began
    let answer = try await link.receive(timeout: .seconds(10))
    guard answer == Array("got \(total)".utf8) else { fail("wrong answer \(answer)") }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let written = await link.bytesWritten
    let counters = await link.counters
    say(
        "ble-probe: link \(oneDecimal(Double(total) / seconds / 1000)) kB/s 100 % (\(total) B in \(oneDecimal(seconds)) s, \(written) B written, \(counters.retransmissions) fragments resent, \(counters.timeouts) timeouts, \(counters.datagramsReceived) datagrams received)"
    )
    await link.close()
    await nearby.device.disconnect()
    say("ble-probe: PASS")
}
