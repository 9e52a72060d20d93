import BlueZ
import DBus
import Link
import NodeKit
import Noise
import PaymentSession
import Tender

/// The payee's Bluetooth service: Tender's GATT application and advertisement on one
/// adapter, a link and a payment session per payer, and the payments they offer handed to
/// the node's exchange one at a time (it is a `PaymentSource`). Payers are served side by
/// side; a payer that breaks the protocol loses its link, the others go on.
public actor NearbyPayee: PaymentSource {
    /// What the payee offers now: the request envelope and the advertised tag.
    public struct Offering: Sendable {
        public var request: [UInt8]
        /// A few bytes of the request for the advertisement (payers list them before connecting).
        public var tag: [UInt8]

        public init(request: [UInt8], tag: [UInt8]) {
            self.request = request
            self.tag = tag
        }

        /// `request` as offered: its envelope, and its id and amount as the tag.
        public init(_ request: PaymentRequest) {
            self.init(
                request: Envelope(domain: request.domain, message: .request(request)).encoded(),
                tag: TenderGATT.tag(requestID: request.id.bytes, amount: request.amount))
        }
    }

    /// What happened on the air, for a front end to show.
    public enum Event: Sendable {
        case ready(adapter: String, address: String)
        case connected(link: UInt32)
        case offered(link: UInt32)
        case linkEnded(link: UInt32)
        case refusedSession(link: UInt32, reason: String)
        case restarted
        /// Registering again after bluetoothd restarted failed this time; it is retried.
        case registerAgainFailed(attempt: Int, reason: String)
    }

    private let bluetooth: BluetoothSession
    private let adapter: Adapter
    private let staticKey: NoisePrivateKey
    /// Nil: nothing offered now (not advertised; a payer that connects anyway gets no request).
    private var offering: Offering?
    private let localName: String
    private let evidence: @Sendable () -> [[UInt8]]
    private let onEvidence: @Sendable ([[UInt8]]) -> Void
    private let onEvent: @Sendable (Event) -> Void
    private let links: PeripheralLinks
    private var sessions: [UInt32: SessionBox] = [:]
    private var queue: [(link: UInt32, payment: [UInt8])] = []
    private var waiting: CheckedContinuation<[UInt8]?, Never>?
    private var current: UInt32?
    private var registrations: [Registration] = []
    private var application: GattApplication?
    private var watcher: Task<Void, Never>?
    private var finished = false
    /// LE L2CAP channels (a payer's alternative to the GATT link), when the kernel lets this
    /// node listen on Tender's PSM; each channel is a link of its own in `sessions`.
    private var listener: L2CAPListener?
    private var channels: [UInt32: L2CAPChannel] = [:]
    private var acceptor: Task<Void, Never>?

    public init(
        bluetooth: BluetoothSession, adapter: Adapter, staticKey: NoisePrivateKey,
        offering: Offering?, localName: String = TenderGATT.localName,
        evidence: @escaping @Sendable () -> [[UInt8]],
        onEvidence: @escaping @Sendable ([[UInt8]]) -> Void,
        onEvent: @escaping @Sendable (Event) -> Void
    ) throws(BluetoothError) {
        self.bluetooth = bluetooth
        self.adapter = adapter
        self.staticKey = staticKey
        self.offering = offering
        self.localName = localName
        self.evidence = evidence
        self.onEvidence = onEvidence
        self.onEvent = onEvent
        do { links = try PeripheralLinks() } catch {
            throw BluetoothError(.bluez, "link configuration: \(error)")
        }
    }

    /// Publishes the service and advertises; re-publishes whenever bluetoothd restarts.
    public func start() async throws(BluetoothError) {
        // Without the channel (PSM taken, no LE L2CAP in the kernel) payers use GATT.
        listener = try? L2CAPListener(psm: TenderGATT.psm)
        if let listener { acceptor = Task { [weak self] in await self?.accept(on: listener) } }
        try await publish()
        let changes = try await bluetooth.bluetoothdChanges()
        watcher = Task { [weak self] in
            for await change in changes where change == .started {
                await self?.republishUntilDone()
            }
        }
    }

    /// Registers again after bluetoothd came back, retrying while it is still setting up (its
    /// adapter may appear, or power on, a moment after its name): a payee that gave up here
    /// would stay dark until restarted.
    private func republishUntilDone() async {
        var delay = Duration.milliseconds(500)
        for attempt in 1...12 {
            try? await Task.sleep(for: delay)
            if finished || Task.isCancelled { return }
            do {
                try await republish()
                return
            } catch {
                onEvent(.registerAgainFailed(attempt: attempt, reason: "\(error)"))
                delay = min(delay * 2, .seconds(5))
            }
        }
    }

    /// A new request: payers that connect from now on get it.
    public func offer(_ offering: Offering) async throws(BluetoothError) {
        self.offering = offering
        try await advertise()
    }

    /// Nothing offered any more (the request was paid, or expired): the advertisement ends,
    /// the service stays for the payers already connected.
    public func withdraw() async {
        offering = nil
        if registrations.count > 1 { await registrations.removeLast().cancelAndWait() }
    }

    private func republish() async throws(BluetoothError) {
        await unpublish()
        try await publish()
        onEvent(.restarted)
    }

    private func publish() async throws(BluetoothError) {
        try await adapter.powerOn()
        let links = self.links
        let psm = listener?.psm
        let request: @Sendable () async -> [UInt8] = { [weak self] in
            PayeeInfo(request: await self?.offering?.request ?? [], psm: psm).encoded
        }
        let application = GattApplication(
            root: ObjectPath(checked: "/tender/payee"), service: TenderGATT.service,
            characteristics: [
                .init(
                    uuid: TenderGATT.info, flags: ["read"],
                    onRead: { _ in await request() }),
                .init(
                    uuid: TenderGATT.rx, flags: ["write", "write-without-response"],
                    onWrite: { value, request in await links.take(value, from: request.device) }),
                .init(uuid: TenderGATT.tx, flags: ["notify"]),
            ])
        do { try await application.export(on: bluetooth.bus) } catch {
            throw BluetoothError(error, doing: "exporting the payment service")
        }
        self.application = application
        await links.start(
            application: application,
            onMessage: { [weak self] link, message in await self?.take(message, on: link) },
            onClosed: { [weak self] link in await self?.forget(link) })
        registrations.append(try await adapter.register(application))
        try await advertise()
        onEvent(.ready(adapter: adapter.name, address: try await adapter.address()))
    }

    private func advertise() async throws(BluetoothError) {
        // The old advertisement unregistered first: the new one takes the same path.
        if registrations.count > 1 { await registrations.removeLast().cancelAndWait() }
        guard let offering else { return }
        registrations.append(
            try await adapter.advertise(
                Advertisement(
                    serviceUUIDs: [TenderGATT.service], localName: localName,
                    manufacturerData: [TenderGATT.tagCompany: offering.tag]),
                at: ObjectPath(checked: "/tender/payee_advertisement")))
    }

    private func unpublish() async {
        for registration in registrations { await registration.cancelAndWait() }
        registrations = []
        await links.stop()
        await application?.unexport()
        application = nil
    }

    // MARK: - Sessions

    private func take(_ message: [UInt8], on link: UInt32) async {
        let box =
            sessions[link]
            ?? SessionBox(
                PayeeSession(staticKey: staticKey, maxMessageBytes: SessionMessages.maxMessageBytes)
            )
        if sessions[link] == nil {
            sessions[link] = box
            onEvent(.connected(link: link))
        }
        let (request, evidence) = (offering?.request ?? [], self.evidence)
        let event: PayeeSession.Event
        // The hello (and the evidence it reads from the store) only for XX's first message.
        do {
            event = try box.session.receive(message) {
                Hello(request: request, evidence: evidence())
            }
        } catch {
            onEvent(.refusedSession(link: link, reason: "\(error)"))
            await end(link, reason: .protocolError)
            return
        }
        switch event {
        case .reply(let bytes): try? await send(bytes, on: link)
        case .waiting: break
        case .offer(let offer):
            if !offer.evidence.isEmpty { onEvidence(offer.evidence) }
            switch offer.content {
            case .decline: await end(link, reason: .done)
            case .payment(let payment):
                onEvent(.offered(link: link))
                if let waiting {
                    self.waiting = nil
                    current = link
                    waiting.resume(returning: payment)
                } else {
                    queue.append((link, payment))
                }
            }
        }
    }

    private func end(_ link: UInt32, reason: CloseReason) async {
        if let channel = channels.removeValue(forKey: link) {
            await channel.close()
        } else {
            await links.close(link, reason: reason)
        }
        forget(link)
    }

    private func forget(_ link: UInt32) {
        if let channel = channels.removeValue(forKey: link) { Task { await channel.close() } }
        guard sessions.removeValue(forKey: link) != nil else { return }
        queue.removeAll { $0.link == link }
        onEvent(.linkEnded(link: link))
    }

    private func answer(_ answer: Answer) async {
        guard let link = current, let box = sessions[link] else { return }
        current = nil
        do { try await send(try box.session.answer(answer), on: link) } catch {
            await end(link, reason: .protocolError)
        }
    }

    /// A message to `link`'s payer, over its channel or its GATT link.
    private func send(_ message: [UInt8], on link: UInt32) async throws {
        if let channel = channels[link] {
            try await channel.send(message)
        } else {
            try await links.send(message, on: link)
        }
    }

    // MARK: - L2CAP channels

    private func accept(on listener: L2CAPListener) async {
        while !Task.isCancelled {
            guard let channel = try? await listener.accept(timeout: .seconds(3600)) else {
                if Task.isCancelled { return }
                continue
            }
            // As many channels as GATT links at most: a flood of channels is refused.
            guard channels.count < LinkConfiguration.standard.maxLinks else {
                await channel.close()
                continue
            }
            // Channel ids never go on the air, so no central can name another's channel.
            var id = UInt32.random(in: 1...UInt32.max)
            while sessions[id] != nil || channels[id] != nil {
                id = UInt32.random(in: 1...UInt32.max)
            }
            channels[id] = channel
            Task { [weak self] in await self?.read(channel, as: id) }
        }
    }

    /// Reads a channel's messages into its session until the channel ends or stays silent
    /// past the link's message timeout.
    private func read(_ channel: L2CAPChannel, as link: UInt32) async {
        while channels[link] != nil,
            let message = try? await channel.receive(
                timeout: LinkConfiguration.standard.messageTimeout)
        {
            await take(message, on: link)
        }
        channels.removeValue(forKey: link)
        await channel.close()
        forget(link)
    }

    // MARK: - PaymentSource

    public func nextPayment() async throws(NodeError) -> [UInt8]? {
        if finished { return nil }
        if !queue.isEmpty {
            let next = queue.removeFirst()
            current = next.link
            return next.payment
        }
        return await withCheckedContinuation { waiting = $0 }
    }

    public func reply(_ receipt: [UInt8]) async throws(NodeError) {
        await answer(Answer(.receipt(receipt), evidence: evidence()))
    }

    public func refuse(_ error: NodeError) async {
        await answer(Answer(.refused(code: error.code, reason: "\(error)"), evidence: evidence()))
    }

    /// Stops serving: registrations undone, links closed, the exchange's wait ended.
    public func finish() async {
        finished = true
        watcher?.cancel()
        for link in sessions.keys { await end(link, reason: .done) }
        acceptor?.cancel()
        await listener?.close()
        sessions = [:]
        await unpublish()
        waiting?.resume(returning: nil)
        waiting = nil
    }
}

/// One payer's session (non-copyable state in a dictionary needs a box).
private final class SessionBox {
    var session: PayeeSession
    init(_ session: consuming PayeeSession) { self.session = session }
}
