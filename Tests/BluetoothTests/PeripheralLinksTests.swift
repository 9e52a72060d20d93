import BlueZ
import Bluetooth
import DBus
import Link
import Synchronization
import Testing

/// The payee's link table on the air: link ids are public (every subscribed central hears
/// every notification), so a link is bound to the device that opened it.
@Suite struct PeripheralLinksTests {
    let alice = ObjectPath(checked: "/org/bluez/hci0/dev_00_AA_01_00_00_01")
    let mallory = ObjectPath(checked: "/org/bluez/hci0/dev_00_AA_01_00_00_02")

    /// Links started on an application that is never exported (notifications go nowhere).
    func links(messages: Seen, closed: Seen) async throws -> PeripheralLinks {
        let links = try PeripheralLinks()
        let application = GattApplication(
            root: ObjectPath(checked: "/tender/test"), service: TenderGATT.service,
            characteristics: [.init(uuid: TenderGATT.tx, flags: ["notify"])])
        await links.start(
            application: application,
            onMessage: { link, _ in messages.add(link) },
            onClosed: { link in closed.add(link) })
        return links
    }

    func message(_ bytes: [UInt8], link: UInt32, id: UInt16) throws -> [[UInt8]] {
        try Fragmenter.datagrams(of: bytes, link: link, id: id, configuration: .standard)
    }

    @Test func anotherDeviceCannotCloseOrFeedALink() async throws {
        let messages = Seen()
        let closed = Seen()
        let links = try await links(messages: messages, closed: closed)
        for datagram in try message([1, 2, 3], link: 7, id: 0) {
            await links.take(datagram, from: alice)
        }
        #expect(messages.links == [7])

        // Mallory heard link 7 in a notification: her close and her message are dropped.
        await links.take(
            LinkFrame.close(LinkClose(link: 7, reason: .done)).encoded(), from: mallory)
        for datagram in try message([9], link: 7, id: 1) {
            await links.take(datagram, from: mallory)
        }
        #expect(await links.linkCount == 1)
        #expect(await links.foreignDatagrams == 2)
        #expect(closed.links.isEmpty)
        #expect(messages.links == [7])

        // Alice's own close ends it, and the id is free for whoever opens it next.
        await links.take(LinkFrame.close(LinkClose(link: 7, reason: .done)).encoded(), from: alice)
        #expect(closed.links == [7])
        #expect(await links.linkCount == 0)
        for datagram in try message([4], link: 7, id: 0) {
            await links.take(datagram, from: mallory)
        }
        #expect(messages.links == [7, 7])
        await links.stop()
    }
}

/// Link ids a callback saw, in order.
final class Seen: Sendable {
    private let seen = Mutex<[UInt32]>([])
    func add(_ link: UInt32) { seen.withLock { $0.append(link) } }
    var links: [UInt32] { seen.withLock { $0 } }
}
