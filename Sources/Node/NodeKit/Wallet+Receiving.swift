import Secp256k1
import Tender
import WalletStore

extension Wallet {
    public struct Received: Sendable {
        public let requestID: Bytes32
        /// Who signed the payment (the owner of the coins that paid, or the issuer).
        public let payer: Address
        public let credited: [Coin]
        public let amount: Amount
        public let asset: Address
        public let memo: String
        /// The receipt envelope to return to the payer.
        public let receipt: [UInt8]
        /// True when this payment had already been accepted: the stored receipt is returned.
        public let repeated: Bool
    }

    /// The longest a request may stay payable: ten years (it is for a sale, and its expiry
    /// must stay a sane date). Front ends check it before asking.
    public static let longestRequestLifetime: UInt64 = 315_360_000

    /// A new request to this wallet (random id), recorded before it is shown; it stays
    /// payable for `lifetime` seconds from `now`.
    public func issueRequest(
        amount: Amount, asset: Address, memo: String, lifetime: UInt64,
        sessionKey: [UInt8]? = nil, now: UInt64
    ) throws(NodeError) -> PaymentRequest {
        let (expiry, overflow) = now.addingReportingOverflow(lifetime)
        guard !overflow else {
            throw NodeError(.usage("a request lifetime of \(lifetime) s is too long"))
        }
        var generator = SystemRandomNumberGenerator()
        let request: PaymentRequest
        do {
            request = try PaymentRequest(
                id: .random(using: &generator), payee: address, amount: amount, asset: asset,
                memo: memo, expiry: expiry, sessionKey: sessionKey, domain: domain)
        } catch { throw NodeError(.rejected(error)) }
        try recordRequest(request, now: now)
        return request
    }

    /// Records a request this wallet is about to show, so a payment naming it must meet its
    /// amount, asset and expiry.
    public func recordRequest(_ request: PaymentRequest, now: UInt64) throws(NodeError) {
        guard request.payee == address, request.domain == domain else {
            throw NodeError(.usage("the request is not for this wallet"))
        }
        try storing {
            try store.recordRequest(
                StoredRequest(
                    id: request.id, asset: request.asset, amount: request.amount,
                    memo: request.memo, expiry: request.expiry), now: now)
        }
    }

    /// This wallet's own request with `id`, when it issued one, carrying `sessionKey` (not
    /// stored: it is the key of the payee service that answers, given again each time).
    public func ownRequest(
        _ id: Bytes32, sessionKey: [UInt8]? = nil
    ) throws(NodeError) -> PaymentRequest? {
        guard let stored = try storing({ try store.request(id) }) else { return nil }
        do {
            return try PaymentRequest(
                id: stored.id, payee: address, amount: stored.amount, asset: stored.asset,
                memo: stored.memo, expiry: stored.expiry, sessionKey: sessionKey, domain: domain)
        } catch { throw NodeError(.io("stored request \(id.short) is corrupt: \(error)")) }
    }

    /// Verifies a payment envelope offline and, if every check passes, accepts it and signs
    /// the receipt (one transaction). The same payment again returns the same receipt; a
    /// double spend stores its evidence and is refused; any other rejection changes nothing.
    public func receive(
        _ bytes: [UInt8], key: PrivateKey, now: UInt64
    ) throws(NodeError) -> Received {
        do { return try receiveOnce(bytes, key: key, now: now) } catch {
            // Another process (a second `tender receive`, the node) accepted this request
            // between the checks and the store: answered as the retry it now is (the same
            // payment gets its receipt, another one is refused as already paid).
            guard case .rejected = error.kind, let requestID = requestID(in: bytes),
                try incomingPayment(requestID) != nil
            else { throw error }
            return try receiveOnce(bytes, key: key, now: now)
        }
    }

    private func requestID(in bytes: [UInt8]) -> Bytes32? {
        guard let envelope = try? decode(bytes), case .payment(let payment) = envelope.message
        else { return nil }
        return payment.requestID
    }

    private func receiveOnce(
        _ bytes: [UInt8], key: PrivateKey, now: UInt64
    ) throws(NodeError) -> Received {
        let envelope = try decode(bytes)
        guard case .payment(let payment) = envelope.message else {
            throw NodeError(.usage("expected a payment, got a \(envelope.message.kind)"))
        }
        guard Address(publicKey: key.publicKey) == address else {
            throw NodeError(.key("the key does not belong to this wallet \(address)"))
        }
        let verifier = Verifier(domain: domain, limits: limits)
        let allInputs = payment.bundle.transfers.flatMap(\.transfer.inputs)
        let seen = try storing { try store.seenSpends(of: allInputs) }
        let policy = try acceptancePolicy(now: now)
        let trusted = issuersOfInterest(policy)
        let request = try ownRequest(payment.requestID)

        if let accepted = try incomingPayment(payment.requestID) {
            // A retry: same coins, same receipt; anything else for this request is refused.
            // Judged as of when it was accepted: a payer retrying after the coins expired
            // must still get its receipt, and nothing changes. Its issuers passed the policy
            // then (the coins it credited now count against their caps).
            let checked = try check(now: now, trusted: trusted) { () throws(ProtocolError) in
                try verifier.check(
                    payment, payee: address, request: request, policy: .anyIssuer,
                    now: accepted.receivedAt, seenSpends: seen)
            }
            do throws(ProtocolError) {
                _ = try decide(
                    requestID: payment.requestID, paymentDigest: checked.digest,
                    acceptedDigest: accepted.digest)
            } catch { throw NodeError(.rejected(error)) }
            return Received(checked, receipt: accepted.receipt, repeated: true)
        }

        if request == nil {
            // Before any signature is checked: a flood of dust costs the payee nothing.
            let floor = try unrequestedFloors()[payment.asset]
            let refused =
                if let floor { payment.amount < floor } else { try refusesUnlistedAssets() }
            if refused {
                throw NodeError(
                    .rejected(
                        ProtocolError(
                            .belowFloor(asset: payment.asset, amount: payment.amount, floor: floor)
                        )))
            }
        }
        let held = try storing { try store.heldCoins(among: payment.coins) }
        let checked: CheckedPayment
        do {
            checked = try check(now: now, trusted: trusted) { () throws(ProtocolError) in
                try verifier.check(
                    payment, payee: address, request: request, policy: policy, now: now,
                    seenSpends: seen, held: held)
            }
        } catch {
            throw try untrustedNoted(error)
        }
        let receipt: SignedReceipt
        do {
            receipt = try SignedReceipt(
                signing: Receipt(
                    requestID: payment.requestID, paymentDigest: checked.digest, time: now),
                with: key, in: domain)
        } catch { throw NodeError(.rejected(error)) }
        let receiptBytes = Envelope(domain: domain, message: .receipt(receipt)).encoded()
        try storing { try store.acceptPayment(checked, receipt: receiptBytes, now: now) }
        return Received(checked, receipt: receiptBytes, repeated: false)
    }

    /// An untrusted issuer's refusal, saying what to do: trust it; in open mode, read the
    /// collateral first (no snapshot yet), or none for that issuer in it. Other errors as
    /// they are.
    private func untrustedNoted(_ error: NodeError) throws(NodeError) -> NodeError {
        guard case .rejected(let refusal) = error.kind,
            case .untrustedIssuer(let issuer) = refusal.kind
        else { return error }
        guard try acceptanceMode() == .open else {
            return NodeError(error.kind, resolvedBy: .trustIssuer(issuer))
        }
        guard let snapshot = try collateral() else {
            return NodeError(
                error.kind,
                note:
                    "in open mode an issuer is taken up to its collateral, and this wallet has read none yet",
                resolvedBy: .settle)
        }
        return error.noting(
            "it has no collateral locked in vault \(domain.vault) as of block \(snapshot.block), the last read"
        )
    }

    /// Runs a verification; a double spend's evidence is stored before the refusal propagates,
    /// when the coin's issuer is one this wallet trusts (its vault is where the evidence is
    /// used; any other issuer's is just bad input, which changes nothing).
    private func check(
        now: UInt64, trusted: some Collection<Address>,
        _ body: () throws(ProtocolError) -> CheckedPayment
    ) throws(NodeError) -> CheckedPayment {
        do { return try body() } catch {
            if case .doubleSpend(let evidence, let issuer) = error.kind, trusted.contains(issuer),
                try owner(of: evidence.coin) == evidence.spender
            {
                let bytes = Envelope(domain: domain, message: .evidence(evidence)).encoded()
                try storing { try store.recordEvidence(evidence, body: bytes, now: now) }
            }
            throw NodeError(.rejected(error))
        }
    }

    // MARK: Evidence

    /// Takes double-spend evidence from a peer or a file: checked on decoding (two transfers
    /// of one coin signed by one key), kept when it concerns a coin this wallet has met and
    /// its signer is that coin's owner as the wallet's own proofs show (anyone can sign two
    /// "spends" of a coin that is not theirs), and only the first for each coin. So a peer
    /// can make the store keep at most one piece of evidence per coin the wallet has met, and
    /// only of a double spend that happened. Returns the evidence and whether it was new.
    @discardableResult
    public func importEvidence(
        _ bytes: [UInt8], now: UInt64
    ) throws(NodeError) -> (evidence: DoubleSpendEvidence, new: Bool) {
        let envelope = try decode(bytes)
        guard case .evidence(let evidence) = envelope.message else {
            throw NodeError(
                .usage("expected double-spend evidence, got a \(envelope.message.kind)"))
        }
        guard let owner = try owner(of: evidence.coin) else {
            throw .rejected(
                .invalidEvidence(
                    "it concerns coin \(evidence.coin.short), which this wallet has never seen"))
        }
        guard owner == evidence.spender else {
            throw .rejected(
                .invalidEvidence(
                    "its transfers are signed by \(evidence.spender.checksummed), not by \(owner.checksummed), who owns coin \(evidence.coin.short)"
                ))
        }
        let new = try storing { try store.recordEvidence(evidence, body: bytes, now: now) }
        return (evidence, new)
    }
}

extension Wallet {
    /// `coin`'s owner as this wallet's own proofs show it (nil: it never met the coin).
    func owner(of coin: CoinID) throws(NodeError) -> Address? {
        switch try storing({ try store.ownership(of: coin) }) {
        case nil: return nil
        case .held(let owner): return owner
        case .issued(let note): return note.note.owner
        case .paid(let transfer):
            let digest = transfer.transfer.digest(in: domain)
            let index = transfer.outputCoins(digest: digest).firstIndex(of: coin)
            return index.map { transfer.transfer.outputs[$0].owner }
        case .spentBy(let transfer): return transfer.signer(in: domain)
        }
    }
}

extension Wallet.Received {
    init(_ checked: CheckedPayment, receipt: [UInt8], repeated: Bool) {
        self.init(
            requestID: checked.payment.requestID, payer: checked.payer, credited: checked.credited,
            amount: checked.payment.amount, asset: checked.payment.asset,
            memo: checked.payment.memo, receipt: receipt, repeated: repeated)
    }
}
