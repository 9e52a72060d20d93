import BlueZ
import DBus
import Link

/// The payee's ends of its links: every central's datagrams arrive on rx (tagged with the
/// link id the central chose), answers leave as tx notifications, which every subscribed
/// central receives and each drops unless it carries its own link id. Bounded by the link
/// table: at most `maxLinks` centrals at once, the least recently active evicted.
public actor PeripheralLinks {
    public typealias MessageHandler = @Sendable (_ link: UInt32, _ message: [UInt8]) async -> Void

    private var table: LinkTable
    private var application: GattApplication?
    private var onMessage: MessageHandler = { _, _ in }
    private var onClosed: @Sendable (UInt32) async -> Void = { _ in }
    private var ticker: Task<Void, Never>?
    private let timer = LinkTimer()
    /// The device that opened each link.
    private var owners: [UInt32: ObjectPath?] = [:]
    public private(set) var bytesWritten = 0

    public init(configuration: LinkConfiguration = .standard) throws(LinkError) {
        table = try LinkTable(configuration: configuration)
    }

    /// Starts serving: messages go to `onMessage`, links that end to `onClosed`.
    public func start(
        application: GattApplication, onMessage: @escaping MessageHandler,
        onClosed: @escaping @Sendable (UInt32) async -> Void
    ) {
        self.application = application
        self.onMessage = onMessage
        self.onClosed = onClosed
        ticker?.cancel()
        ticker = timer.run { [weak self] in await self?.tick() }
    }

    public func stop() {
        ticker?.cancel()
        ticker = nil
    }

    /// What the table holds now (for the bounds the hostile-peer tests check).
    public var counters: LinkCounters { table.counters }
    public var linkCount: Int { table.count }

    /// One datagram written to rx by a central (`device`, as BlueZ names the writer). A link
    /// belongs to the device that opened it: link ids travel in every notification, which
    /// every subscribed central receives, and a datagram from another device naming that id
    /// (a close, an ack, a fragment) is dropped, so no central can end or feed another's link.
    public func take(_ datagram: [UInt8], from device: ObjectPath? = nil) async {
        if let id = LinkFrame.peekLink(datagram), let owner = owners[id], owner != device {
            foreignDatagrams += 1
            return
        }
        let received = table.receive(datagram, now: linkNow())
        timer.wake()
        if let evicted = received.evicted { await ended(evicted) }
        guard let link = received.link else { return }
        if owners[link] == nil, table.link(link) != nil {
            owners[link] = device
            // Links the table dropped on its own (timeouts) leave no owner behind for long.
            if owners.count > 2 * table.configuration.maxLinks {
                owners = owners.filter { table.link($0.key) != nil }
            }
        }
        await handle(link, received.events)
    }

    /// Datagrams dropped because they named a link another device opened.
    public private(set) var foreignDatagrams = 0

    /// Sends `message` on `link` (fragments now, resends as acks say).
    public func send(_ message: [UInt8], on link: UInt32) async throws(LinkError) {
        let datagrams = try table.send(message, on: link, now: linkNow())
        timer.wake()
        await notify(datagrams)
    }

    /// Ends a link from this side.
    public func close(_ link: UInt32, reason: CloseReason) async {
        owners[link] = nil
        if let frame = table.close(link, reason: reason) { await notify([frame]) }
    }

    private func ended(_ link: UInt32) async {
        owners[link] = nil
        await onClosed(link)
    }

    /// Runs timers; returns the next deadline (nil: none until something is sent or taken).
    private func tick() async -> LinkInstant? {
        for received in table.tick(now: linkNow()) {
            if let link = received.link { await handle(link, received.events) }
        }
        return table.nextDeadline
    }

    private func handle(_ link: UInt32, _ events: LinkEvents) async {
        await notify(events.datagrams)
        for message in events.delivered { await onMessage(link, message.bytes) }
        let gaveUp = events.errors.contains {
            if case .retriesExhausted = $0 { return true }
            return false
        }
        if events.closed != nil || gaveUp {
            _ = table.close(link, reason: .timeout)
            await ended(link)
        }
    }

    private func notify(_ datagrams: [[UInt8]]) async {
        guard let application else { return }
        for datagram in datagrams {
            bytesWritten += datagram.count
            try? await application.notify(TenderGATT.tx, datagram)
        }
    }
}
