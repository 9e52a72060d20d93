import Foundation
import Tender
import WalletStore

/// One wallet: its address, its domain and its store. Every operation a front end (the CLI,
/// the exchange, later the daemon) needs goes through here; each state change is one store
/// transaction, and every failure is a `NodeError`.
public struct Wallet: Sendable {
    public let address: Address
    public let domain: Domain
    public let limits: VerificationLimits
    package let store: WalletDatabase

    init(store: WalletDatabase, limits: VerificationLimits = .standard) throws(NodeError) {
        let identity = try storing { try store.identity() }
        self.address = identity.address
        self.domain = identity.domain
        self.store = store
        self.limits = limits
    }

    /// Opens the wallet database at `path`.
    public static func open(
        at path: String, limits: VerificationLimits = .standard
    ) throws(NodeError) -> Wallet {
        try Wallet(store: try storing { try WalletDatabase(path: path) }, limits: limits)
    }

    /// Creates the wallet database at `path`, bound to `address` in `domain` for good.
    public static func create(
        at path: String, address: Address, domain: Domain
    ) throws(NodeError) -> Wallet {
        try storing {
            let store = try WalletDatabase(path: path)
            try store.bind(address: address, domain: domain)
        }
        // Its owner's only, as the key beside it (SQLite gives its -wal and -shm files the
        // database's mode).
        chmod(path, 0o600)
        return try open(at: path)
    }

    /// Copies the write-ahead log into the database file (at the end of a command).
    public func close() throws(NodeError) { try storing { try store.close() } }

    // MARK: Reading

    /// Balance per asset at `now`: coins too close to expiry to pay with count as expiring.
    public func balances(now: UInt64) throws(NodeError) -> [Address: Balance] {
        try storing { try store.balances(now: now, minimumLifetime: limits.minimumCoinLifetime) }
    }

    public func outgoingPayments() throws(NodeError) -> [OutgoingPaymentRecord] {
        try storing { try store.outgoingPayments() }
    }

    public func outgoingPayment(_ id: Bytes32) throws(NodeError) -> OutgoingPaymentRecord {
        guard let payment = try storing({ try store.outgoingPayment(id) }) else {
            throw NodeError(.missing("this wallet made no payment with request id \(id.hex)"))
        }
        return payment
    }

    /// How many coins stand in each state.
    /// Issuers' assets whose coins are held back from redeems now (a batch of theirs alone
    /// reverted: the sync engine's `heldBack`).
    public func redeemHolds(now: UInt64) throws(NodeError) -> [RedeemHold] {
        try storing { try store.redeemHolds(now: now) }
    }

    public func coinCounts() throws(NodeError) -> [CoinState: Int] {
        try storing { try store.coinCounts() }
    }

    /// Where each coin this wallet holds or held stands.
    public func coinStates() throws(NodeError) -> [CoinID: CoinState] {
        try storing { try store.coinStates().mapValues(\.state) }
    }

    public func incomingPayments() throws(NodeError) -> [IncomingPaymentRecord] {
        try storing { try store.incomingPayments() }
    }

    /// The payments accepted after row `row` (0: all), and the last row read.
    public func incomingPayments(
        afterRow row: Int64
    ) throws(NodeError) -> (payments: [IncomingPaymentRecord], lastRow: Int64) {
        try storing { try store.incomingPayments(afterRow: row) }
    }

    /// The last payment row: where a reader that polls for new payments starts.
    public func lastIncomingRow() throws(NodeError) -> Int64 {
        try storing { try store.lastIncomingRow() }
    }

    public func incomingPaymentCount() throws(NodeError) -> Int {
        try storing { try store.incomingPaymentCount() }
    }

    public func outgoingPaymentCounts() throws(NodeError) -> [OutgoingPaymentState: Int] {
        try storing { try store.outgoingPaymentCounts() }
    }

    /// The payment this wallet accepted for request `id`, if any.
    public func incomingPayment(_ id: Bytes32) throws(NodeError) -> IncomingPaymentRecord? {
        try storing { try store.incomingPayment(id) }
    }

    /// Double-spend evidence this wallet holds, with the envelope to hand on and when it was found.
    public func evidence() throws(NodeError) -> [(
        evidence: DoubleSpendEvidence, envelope: [UInt8], foundAt: UInt64
    )] {
        try storing { try store.evidenceBodies() }.map { stored throws(NodeError) in
            guard case .evidence(let evidence) = try decode(stored.body).message else {
                throw NodeError(.io("a stored evidence row holds another kind of payload"))
            }
            return (evidence, stored.body, stored.foundAt)
        }
    }

    // MARK: Issuers

    public func trustedIssuers() throws(NodeError) -> Set<Address> {
        try storing { try store.trustedIssuers() }
    }

    /// Accepts `issuer`'s notes from now on (operator mode). Refuses addresses that cannot be
    /// an issuer: the zero address, and this wallet (it would accept notes it wrote itself).
    public func trust(_ issuer: Address, now: UInt64) throws(NodeError) {
        guard issuer != .zero else {
            throw NodeError(
                .usage("the zero address cannot issue notes; give the issuer's address"))
        }
        guard issuer != address else {
            throw NodeError(.usage("\(issuer) is this wallet: a wallet does not trust itself"))
        }
        try storing { try store.trust(issuer, now: now) }
    }

    /// Stops accepting `issuer`'s notes; coins already held stay. Returns whether it was trusted.
    @discardableResult
    public func distrust(_ issuer: Address) throws(NodeError) -> Bool {
        let trusted = try trustedIssuers().contains(issuer)
        try storing { try store.distrust(issuer) }
        return trusted
    }

    /// Decodes an envelope for this wallet's domain.
    public func decode(_ bytes: [UInt8]) throws(NodeError) -> Envelope {
        do { return try decodeEnvelope(bytes) } catch { throw NodeError(.rejected(error)) }
    }

    func decodeEnvelope(_ bytes: [UInt8]) throws(ProtocolError) -> Envelope {
        try Envelope.decode(bytes, expecting: domain, limits: limits)
    }
}
