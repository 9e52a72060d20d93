import BlueZ
import Bluetooth
import DBus
import Link

// Messages over an LE L2CAP channel through Tender's own code (Bluetooth module:
// L2CAPChannel, L2CAPListener; the Link's packet framing) on real bluetoothd: the peripheral
// answers every message with its length; the central sends one small and one large message
// and prints the large one's rate, from its first SDU to the answer ("ble-probe: l2cap RATE
// kB/s").

/// A PSM of the LE dynamic range, apart from the raw ceiling's 0x0081.
enum L2CAPProbe {
    static let psm: UInt16 = 0x0085
}

func runL2CAPPeripheral() async throws {
    let session = try await BluetoothSession.open()
    let adapter = try await session.adapter(adapterName)
    try await adapter.powerOn()
    let listener = try L2CAPListener(psm: L2CAPProbe.psm)
    let advertising = try await adapter.advertise(
        Advertisement(serviceUUIDs: [TenderGATT.service], localName: "tender-l2cap"),
        at: ObjectPath(checked: "/tender/l2capprobe_advertisement"))
    say("PROBE_READY (PSM \(L2CAPProbe.psm))")
    while !Task.isCancelled {
        let channel = try await listener.accept(timeout: .seconds(3600))
        say("channel open: send MTU \(channel.sendMTU), receive MTU \(channel.receiveMTU)")
        Task {
            while let message = try? await channel.receive(timeout: .seconds(60)) {
                let began = await channel.lastMessageBegan ?? .now
                let microseconds =
                    (ContinuousClock.now - began).components.attoseconds / 1_000_000_000_000
                    + (ContinuousClock.now - began).components.seconds * 1_000_000
                try? await channel.send(Array("got \(message.count) in \(microseconds) us".utf8))
            }
            await channel.close()
        }
    }
    advertising.cancel()
}

func runL2CAPCentral() async throws {
    let session = try await BluetoothSession.open()
    let nearby = try await connectToFirstPayee(session)
    let addressType = try? await RemoteObject(
        session.bus, destination: "org.bluez", path: nearby.device.path
    ).property("org.bluez.Device1", "AddressType").string
    let channel = try await L2CAPChannel.connect(
        to: nearby.address, random: addressType == "random", psm: L2CAPProbe.psm)
    say(
        "channel open to \(nearby.address) (\(addressType ?? "public")): send MTU \(channel.sendMTU), receive MTU \(channel.receiveMTU)"
    )
    try await channel.send(Array("hello".utf8))
    let first = String(decoding: try await channel.receive(timeout: .seconds(10)), as: UTF8.self)
    guard first.hasPrefix("got 5 in ") else { fail("wrong answer \(first)") }
    let total = Int(option("--bytes") ?? "100000") ?? 100_000
    let message = (0..<total).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let began = ContinuousClock.now
    try await channel.send(message)
    let answer = String(decoding: try await channel.receive(timeout: .seconds(60)), as: UTF8.self)
    let elapsed = ContinuousClock.now - began
    let words = answer.split(separator: " ")
    guard words.count == 5, words[1] == "\(total)", let receiving = Double(words[3]) else {
        fail("wrong answer \(answer)")
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    // The receiver's figure (first SDU to last), as ceiling-l2cap.sh measures the raw channel;
    // the sender's includes handing the first SDUs over and the answer's way back.
    say(
        "ble-probe: l2cap \(oneDecimal(Double(total) / receiving * 1000)) kB/s 100 % at the receiver (\(total) B in \(oneDecimal(receiving / 1e6)) s; \(oneDecimal(Double(total) / seconds / 1000)) kB/s from the first send to the answer)"
    )
    await channel.close()
    await nearby.device.disconnect()
    say("ble-probe: PASS")
}
