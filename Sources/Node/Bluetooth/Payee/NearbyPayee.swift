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
    /// Nil: nothing offered now (not advertised; a payer that connects anyway gets no request).
    private var offering: Offering?
    private let evidence: @Sendable () -> [[UInt8]]
    private let onEvidence: @Sendable ([[UInt8]]) -> Void
    private let onEvent: @Sendable (Event) -> Void
    /// The payers' GATT links.
    private let links: PeripheralLinks
    /// Their LE L2CAP channels, when the kernel lets this node listen on Tender's PSM.
    private var channels: PayeeChannels?
    private var sessions: PayeeSessions
    private var payments = PaymentQueue()
    private let publication: PayeePublication
    private var watcher: Task<Void, Never>?
    /// How Cashu tokens are taken; nil: refused.
    private let cashu: CashuTaking?
    /// The public half of the session key, which Cashu terms are signed for.
    private let sessionKey: [UInt8]
    /// Cashu offers each link made so far (at most `CashuTaking.offersPerSession`).
    private var cashuOffers: [UInt32: Int] = [:]

    public init(
        bluetooth: BluetoothSession, adapter: Adapter, staticKey: NoisePrivateKey,
        offering: Offering?, localName: String = TenderGATT.localName,
        evidence: @escaping @Sendable () -> [[UInt8]],
        onEvidence: @escaping @Sendable ([[UInt8]]) -> Void,
        onEvent: @escaping @Sendable (Event) -> Void, cashu: CashuTaking? = nil
    ) throws(BluetoothError) {
        self.bluetooth = bluetooth
        self.cashu = cashu
        self.sessionKey = Array(staticKey.publicKey.rawRepresentation)
        self.publication = PayeePublication(
            bluetooth: bluetooth, adapter: adapter, localName: localName)
        self.sessions = PayeeSessions(staticKey: staticKey)
        self.offering = offering
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
        if let channels = try? PayeeChannels(psm: TenderGATT.psm) {
            self.channels = channels
            await channels.start(
                inUse: { [weak self] link in await self?.hasSession(link) ?? true },
                onMessage: { [weak self] link, message in await self?.take(message, on: link) },
                onClosed: { [weak self] link in await self?.forget(link) })
        }
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
            if payments.finished || Task.isCancelled { return }
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
        try await publication.advertise(offering.tag)
    }

    /// Nothing offered any more (the request was paid, or expired): the advertisement ends,
    /// the service stays for the payers already connected. A payee that takes Cashu tokens
    /// stays advertised, with no tag: a payer with a token to give finds it without a request.
    public func withdraw() async {
        offering = nil
        try? await publication.advertise(idleTag)
    }

    /// What is advertised while no request is offered.
    private var idleTag: [UInt8]? { cashu == nil ? nil : [] }

    private func republish() async throws(BluetoothError) {
        await publication.unpublish(links: links)
        try await publish()
        onEvent(.restarted)
    }

    private func publish() async throws(BluetoothError) {
        let psm = channels?.psm
        try await publication.publish(
            links: links,
            info: { [weak self] in
                PayeeInfo(request: await self?.offering?.request ?? [], psm: psm).encoded
            },
            tag: offering?.tag ?? idleTag,
            onMessage: { [weak self] link, message in await self?.take(message, on: link) },
            onClosed: { [weak self] link in await self?.forget(link) })
        let adapter = publication.adapter
        onEvent(.ready(adapter: adapter.name, address: try await adapter.address()))
    }

    // MARK: - Sessions

    private func hasSession(_ link: UInt32) -> Bool { sessions.contains(link) }

    private func take(_ message: [UInt8], on link: UInt32) async {
        let (request, evidence) = (offering?.request ?? [], self.evidence)
        if !sessions.contains(link) { onEvent(.connected(link: link)) }
        let event: PayeeSession.Event
        // The hello (and the evidence it reads from the store) only for XX's first message.
        do {
            event = try sessions.receive(message, on: link) {
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
                payments.offer(payment, on: link)
            case .cashu, .cashuTermsAsked:
                await answerCashu(offer.content, on: link)
            }
        }
    }

    /// A Cashu offer, answered here (not through the exchange: a token is the Cashu wallet's)
    /// with no suspension between the offer and its answer, so no other message of the link
    /// comes between; a link that made its share of Cashu offers is ended.
    private func answerCashu(_ content: Offer.Content, on link: UInt32) async {
        let made = cashuOffers[link, default: 0] + 1
        cashuOffers[link] = made
        guard made <= CashuTaking.offersPerSession else {
            onEvent(.refusedSession(link: link, reason: "more than \(made - 1) Cashu offers"))
            await end(link, reason: .protocolError)
            return
        }
        let answer: Answer.Content
        switch (content, cashu) {
        case (.cashuTermsAsked, let cashu?):
            answer =
                cashu.terms(sessionKey).map(Answer.Content.cashuTerms)
                ?? .refused(
                    code: "not-found", reason: "this payee's Cashu wallet cannot take tokens yet")
        case (.cashu(let token), let cashu?): answer = cashu.take(token)
        default:
            answer = .refused(code: "cashu-off", reason: "this payee takes no Cashu tokens")
        }
        await self.answer(Answer(answer, evidence: evidence()), on: link)
    }

    private func end(_ link: UInt32, reason: CloseReason) async {
        if await channels?.close(link) != true { await links.close(link, reason: reason) }
        forget(link)
    }

    private func forget(_ link: UInt32) {
        cashuOffers[link] = nil
        guard sessions.end(link) else { return }
        payments.drop(link)
        onEvent(.linkEnded(link: link))
    }

    private func answer(_ answer: Answer) async {
        guard let link = payments.answering() else { return }
        await self.answer(answer, on: link)
    }

    private func answer(_ answer: Answer, on link: UInt32) async {
        do {
            guard let sealed = try sessions.answer(answer, on: link) else { return }
            try await send(sealed, on: link)
        } catch {
            await end(link, reason: .protocolError)
        }
    }

    /// A message to `link`'s payer, over its channel or its GATT link.
    private func send(_ message: [UInt8], on link: UInt32) async throws {
        if try await channels?.send(message, on: link) == true { return }
        try await links.send(message, on: link)
    }

    // MARK: - PaymentSource

    public func nextPayment() async throws(NodeError) -> [UInt8]? {
        await withCheckedContinuation { payments.next($0) }
    }

    public func reply(_ receipt: [UInt8]) async throws(NodeError) {
        await answer(Answer(.receipt(receipt), evidence: evidence()))
    }

    public func refuse(_ error: NodeError) async {
        await answer(Answer(.refused(code: error.code, reason: "\(error)"), evidence: evidence()))
    }

    /// Stops serving: registrations undone, links closed, the exchange's wait ended.
    public func finish() async {
        payments.finish()
        watcher?.cancel()
        for link in sessions.links { await end(link, reason: .done) }
        await channels?.stop()
        await publication.unpublish(links: links)
    }
}
