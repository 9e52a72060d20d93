/// Where a fraud proof of a coin stands.
public enum FraudProofState: String, Sendable, CaseIterable {
    /// Signed and recorded by this node; sent, or to be sent again.
    case sent
    /// The vault has the coin's double spend on record (this node's proof or another's).
    case proven
}

/// The moves of a coin's fraud proof, each allowed only from the states it names (nil: no
/// proof recorded for the coin yet).
public enum FraudProofTransition: Sendable, CaseIterable {
    /// A proof signed (or its replacement, same nonce, higher fees) and recorded before it
    /// is sent.
    case send
    /// The vault has the double spend on record.
    case prove
    /// The vault refused the proof, or another transaction took its nonce: the next pass
    /// signs it anew.
    case forget

    public var from: Set<FraudProofState?> {
        switch self {
        case .send, .prove: [nil, .sent]
        case .forget: [.sent]
        }
    }

    /// Nil: the record is gone.
    public var to: FraudProofState? {
        switch self {
        case .send: .sent
        case .prove: .proven
        case .forget: nil
        }
    }
}

/// A fraud proof this wallet sent: the signed transaction, kept to be sent again.
public struct FraudProofRecord: Sendable, Equatable {
    public let coin: CoinID
    public let hash: Bytes32
    public let raw: [UInt8]
    public let state: FraudProofState
    /// Its nonce (nil for a proof recorded before nonces were kept, or proven by another).
    public let nonce: UInt64?
    /// When it was signed (or found proven).
    public let signedAt: UInt64

    public init(
        coin: CoinID, hash: Bytes32, raw: [UInt8], state: FraudProofState, nonce: UInt64?,
        signedAt: UInt64
    ) {
        self.coin = coin
        self.hash = hash
        self.raw = raw
        self.state = state
        self.nonce = nonce
        self.signedAt = signedAt
    }
}
