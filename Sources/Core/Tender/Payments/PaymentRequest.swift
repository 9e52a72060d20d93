/// What a payee asks for (Docs/PROTOCOL.md): shown as a QR code or advertised over BLE, or implied
/// by `tender pay --to` when the payer pays without one.
public struct PaymentRequest: Hashable, Sendable {
    public let id: Bytes32
    public let payee: Address
    public let amount: Amount
    public let asset: Address
    public let memo: String
    /// Unix seconds after which the payee refuses payment.
    public let expiry: UInt64
    /// The payee's X25519 session key for the Noise handshake, when it has one (32 bytes).
    public let sessionKey: [UInt8]?
    public let domain: Domain

    public static let maxMemoBytes = 140

    public init(
        id: Bytes32, payee: Address, amount: Amount, asset: Address, memo: String = "",
        expiry: UInt64, sessionKey: [UInt8]? = nil, domain: Domain
    ) throws(ProtocolError) {
        guard amount > 0 else {
            throw ProtocolError(.malformed("a request amount must be positive"))
        }
        guard memo.utf8.count <= Self.maxMemoBytes else {
            throw ProtocolError(.malformed("memo is longer than \(Self.maxMemoBytes) bytes"))
        }
        if let sessionKey, sessionKey.count != 32 {
            throw ProtocolError(.malformed("session key must be 32 bytes, got \(sessionKey.count)"))
        }
        self.id = id
        self.payee = payee
        self.amount = amount
        self.asset = asset
        self.memo = memo
        self.expiry = expiry
        self.sessionKey = sessionKey
        self.domain = domain
    }

    /// Whether a payment may still answer this request in `domain` at `now`: the checks the
    /// payer makes before paying and the payee makes on receiving.
    public func checkPayable(in domain: Domain, now: UInt64) throws(ProtocolError) {
        guard self.domain == domain else {
            throw ProtocolError(.wrongDomain(expected: domain, actual: self.domain))
        }
        guard now < expiry else {
            throw ProtocolError(.requestExpired(requestID: id, expiry: expiry, now: now))
        }
    }
}
