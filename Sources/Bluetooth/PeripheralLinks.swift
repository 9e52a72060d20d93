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
        ticker = LinkTimer.run { [weak self] in await self?.tick() }
    }

    public func stop() {
        ticker?.cancel()
        ticker = nil
    }

    /// What the table holds now (for the bounds the hostile-peer tests check).
    public var counters: LinkCounters { table.counters }
    public var linkCount: Int { table.count }

    /// One datagram written to rx by a central.
    public func take(_ datagram: [UInt8]) async {
        let received = table.receive(datagram, now: linkNow())
        if let evicted = received.evicted { await onClosed(evicted) }
        guard let link = received.link else { return }
        await handle(link, received.events)
    }

    /// Sends `message` on `link` (fragments now, resends as acks say).
    public func send(_ message: [UInt8], on link: UInt32) async throws(LinkError) {
        let datagrams = try table.send(message, on: link, now: linkNow())
        await notify(datagrams)
    }

    /// Ends a link from this side.
    public func close(_ link: UInt32, reason: CloseReason) async {
        if let frame = table.close(link, reason: reason) { await notify([frame]) }
    }

    private func tick() async -> Duration {
        for received in table.tick(now: linkNow()) {
            if let link = received.link { await handle(link, received.events) }
        }
        return LinkTimer.nap(until: table.nextDeadline)
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
            await onClosed(link)
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
