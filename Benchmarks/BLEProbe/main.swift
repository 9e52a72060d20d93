import BlueZ
import DBus
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

// The lab's check of Tender's own D-Bus and BlueZ layers on real bluetoothd, and the raw GATT
// rates through them (Docs/BENCHMARKS.md, "Bluetooth LE"):
//   BLEProbe peripheral [--adapter hciN]
//   BLEProbe central [--adapter hciN] [--bytes N] [--modes request,command,acquire]
// The peripheral serves one service (rx: write and write-without-response, tx: notify,
// info: read = bytes received so far) and advertises it; the central finds it, connects, gets
// a notification back for a ping, then sends N bytes in 244-byte values in each mode and reads
// how many arrived. Prints "ble-probe: MODE RATE kB/s DELIVERED %" lines.

let service = BluetoothUUID("7e4d0001-5a1e-4c6b-9d2f-3b8a6c1e0f42")!
let rx = BluetoothUUID("7e4d0002-5a1e-4c6b-9d2f-3b8a6c1e0f42")!
let tx = BluetoothUUID("7e4d0003-5a1e-4c6b-9d2f-3b8a6c1e0f42")!
let info = BluetoothUUID("7e4d0004-5a1e-4c6b-9d2f-3b8a6c1e0f42")!

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else {
        return nil
    }
    return arguments[index + 1]
}

/// Prints a whole line at once (the lab reads the log while the probe runs).
func say(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

/// `value` with one decimal.
func oneDecimal(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

func fail(_ text: String) -> Never {
    say("ble-probe: FAIL \(text)")
    exit(1)
}

let adapterName = option("--adapter") ?? getenv("BLE_ADAPTER").map { String(cString: $0) }

func runPeripheral() async throws {
    let session = try await BluetoothSession.open()
    let adapter = try await session.adapter(adapterName)
    try await adapter.powerOn()
    let received = Atomic<Int>(0)
    let echo = EchoTarget()
    let app = GattApplication(
        root: ObjectPath(checked: "/tender/probe"), service: service,
        characteristics: [
            .init(
                uuid: rx, flags: ["write", "write-without-response"],
                onWrite: { value, _ in
                    received.add(value.count, ordering: .relaxed)
                    if value.starts(with: Array("ping".utf8)) { await echo.send(value) }
                }),
            .init(uuid: tx, flags: ["notify"]),
            .init(
                uuid: info, flags: ["read"],
                onRead: { _ in Array(String(received.load(ordering: .relaxed)).utf8) }),
        ])
    await echo.attach(app)
    try await app.export(on: session.bus)
    let registration = try await adapter.register(app)
    let advertising = try await adapter.advertise(
        Advertisement(serviceUUIDs: [service], localName: "tender-probe"),
        at: ObjectPath(checked: "/tender/probe_advertisement"))
    say("adapter \(adapter.name) \(try await adapter.address())")
    say("PROBE_READY")
    try await Task.sleep(for: .seconds(3600))
    registration.cancel()
    advertising.cancel()
}

actor EchoTarget {
    var app: GattApplication?
    func attach(_ app: GattApplication) { self.app = app }
    func send(_ value: [UInt8]) async {
        try? await app?.notify(tx, Array("ack:".utf8) + value)
    }
}

func runCentral() async throws {
    let session = try await BluetoothSession.open()
    let adapter = try await session.adapter(adapterName)
    try await adapter.powerOn()
    let start = ContinuousClock.now
    var found: NearbyDevice?
    for await nearby in try await adapter.discover(service: service) {
        found = nearby
        break
    }
    guard let nearby = found else { fail("discovery ended without the probe") }
    say(
        "found \(nearby.address) \(nearby.name ?? "?") RSSI \(nearby.rssi.map(String.init) ?? "?") after \(ContinuousClock.now - start)"
    )
    try await nearby.device.connect()
    try await nearby.device.servicesResolved(timeout: .seconds(30))
    let rxCharacteristic = try await nearby.device.characteristic(rx, of: service)
    let txCharacteristic = try await nearby.device.characteristic(tx, of: service)
    let infoCharacteristic = try await nearby.device.characteristic(info, of: service)
    say("connected and resolved after \(ContinuousClock.now - start)")
    let notifications = try await txCharacteristic.notifications()
    try await rxCharacteristic.write(Array("ping-1".utf8), kind: .request)
    var iterator = notifications.values.makeAsyncIterator()
    guard let echo = await iterator.next(), echo == Array("ack:ping-1".utf8) else {
        fail("no echo of the ping")
    }
    say("notification ack:ping-1")

    let total = Int(option("--bytes") ?? "50000") ?? 50_000
    let modes = (option("--modes") ?? "request,command,acquire").split(separator: ",")
    for mode in modes {
        let before = Int(String(decoding: try await infoCharacteristic.read(), as: UTF8.self)) ?? 0
        let value = [UInt8](repeating: 0x5A, count: 244)
        let began = ContinuousClock.now
        var sent = 0
        switch mode {
        case "acquire":
            let (socket, mtu) = try await rxCharacteristic.acquireWrite()
            let size = min(244, mtu - 3)
            while sent < total {
                let count = min(size, total - sent)
                let written = value.withUnsafeBytes {
                    write(socket.rawValue, $0.baseAddress, count)
                }
                if written < 0 {
                    if errno == EAGAIN || errno == EINTR { continue }
                    fail("write on the acquired socket: errno \(errno)")
                }
                sent += written
            }
        default:
            while sent < total {
                let count = min(244, total - sent)
                try await rxCharacteristic.write(
                    Array(value[0..<count]), kind: mode == "request" ? .request : .command)
                sent += count
            }
        }
        try await Task.sleep(for: .seconds(2))
        let after = Int(String(decoding: try await infoCharacteristic.read(), as: UTF8.self)) ?? 0
        let seconds =
            Double((ContinuousClock.now - began - .seconds(2)).components.seconds)
            + Double((ContinuousClock.now - began - .seconds(2)).components.attoseconds) / 1e18
        let delivered = after - before
        say(
            "ble-probe: \(mode) \(oneDecimal(Double(delivered) / seconds / 1000)) kB/s \(delivered * 100 / max(1, total)) % (\(delivered) of \(total) B)"
        )
    }
    await nearby.device.disconnect()
    say("ble-probe: PASS")
}

do {
    switch CommandLine.arguments.dropFirst().first {
    case "peripheral": try await runPeripheral()
    case "central": try await runCentral()
    case "link-peripheral": try await runLinkPeripheral()
    case "link-central": try await runLinkCentral()
    case "l2cap-peripheral": try await runL2CAPPeripheral()
    case "l2cap-central": try await runL2CAPCentral()
    default:
        fail(
            "usage: BLEProbe peripheral|central|link-peripheral|link-central|l2cap-peripheral|l2cap-central [--adapter hciN] [--bytes N] [--modes …]"
        )
    }
} catch { fail("\(error)") }
