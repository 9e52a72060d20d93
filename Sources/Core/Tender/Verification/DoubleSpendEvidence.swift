/// Two valid transfers, signed by the same owner, that consume the same coin with different
/// digests: a fraud proof that anyone can check with nothing but the domain.
public struct DoubleSpendEvidence: Hashable, Sendable {
    public let coin: CoinID
    public let first: SignedTransfer
    public let second: SignedTransfer
    /// The owner who signed both.
    public let spender: Address

    /// Checks the two transfers form a fraud proof; the pair is stored in digest order so the
    /// same fraud always yields the same evidence.
    public init(
        coin: CoinID, _ a: SignedTransfer, _ b: SignedTransfer, in domain: Domain
    )
        throws(ProtocolError)
    {
        let digestA = a.transfer.digest(in: domain)
        let digestB = b.transfer.digest(in: domain)
        guard digestA != digestB else {
            throw ProtocolError(.invalidEvidence("both transfers are the same transfer"))
        }
        guard a.transfer.inputs.contains(coin), b.transfer.inputs.contains(coin) else {
            throw ProtocolError(.invalidEvidence("a transfer does not consume coin \(coin.short)"))
        }
        guard let signerA = signer(of: digestA, signature: a.signature),
            let signerB = signer(of: digestB, signature: b.signature)
        else { throw ProtocolError(.invalidEvidence("a signature does not recover")) }
        guard signerA == signerB else {
            throw ProtocolError(.invalidEvidence("the transfers have different signers"))
        }
        self.coin = coin
        self.spender = signerA
        (first, second) = digestA < digestB ? (a, b) : (b, a)
    }

    /// Re-checks evidence received from elsewhere (a peer, a file).
    public func verify(in domain: Domain) throws(ProtocolError) {
        let rebuilt = try DoubleSpendEvidence(coin: coin, first, second, in: domain)
        guard rebuilt.spender == spender else {
            throw ProtocolError(.invalidEvidence("spender does not match the signatures"))
        }
    }
}
