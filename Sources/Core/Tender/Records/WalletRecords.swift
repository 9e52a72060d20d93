/// What a wallet keeps, as the domain knows it: the store persists these, the node and its
/// front ends read them.

/// A payment this wallet made, as stored.
public struct OutgoingPaymentRecord: Sendable {
    public let requestID: Bytes32
    public let payee: Address
    public let asset: Address
    public let amount: Amount
    public let memo: String
    public let state: OutgoingPaymentState
    public let digest: Bytes32
    /// The encoded envelope handed to the payee: re-exportable, byte for byte.
    public let envelope: [UInt8]
    public let receipt: [UInt8]?
    public let createdAt: UInt64
    public let updatedAt: UInt64

    public init(
        requestID: Bytes32, payee: Address, asset: Address, amount: Amount, memo: String,
        state: OutgoingPaymentState, digest: Bytes32, envelope: [UInt8], receipt: [UInt8]?,
        createdAt: UInt64, updatedAt: UInt64
    ) {
        self.requestID = requestID
        self.payee = payee
        self.asset = asset
        self.amount = amount
        self.memo = memo
        self.state = state
        self.digest = digest
        self.envelope = envelope
        self.receipt = receipt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A payment this wallet accepted, as stored.
public struct IncomingPaymentRecord: Sendable {
    public let requestID: Bytes32
    public let asset: Address
    public let amount: Amount
    public let memo: String
    /// Who signed the payment (nil for payments accepted before payers were kept).
    public let payer: Address?
    public let digest: Bytes32
    /// The encoded receipt envelope this wallet signed: returned again on a retry.
    public let receipt: [UInt8]
    public let receivedAt: UInt64
    /// What became of its coins on chain, as far as this wallet settled them.
    public var settlement = IncomingSettlement()

    public init(
        requestID: Bytes32, asset: Address, amount: Amount, memo: String, payer: Address?,
        digest: Bytes32, receipt: [UInt8], receivedAt: UInt64
    ) {
        self.requestID = requestID
        self.asset = asset
        self.amount = amount
        self.memo = memo
        self.payer = payer
        self.digest = digest
        self.receipt = receipt
        self.receivedAt = receivedAt
    }
}

/// The part of a received payment this wallet redeemed, or is redeeming, on chain. Coins paid
/// onward are in neither: the payment was received, and that money went on offline.
public struct IncomingSettlement: Equatable, Sendable {
    /// In redeem transactions recorded or sent, not yet final.
    public var redeeming: Amount = 0
    /// Paid to this wallet's address by the vault.
    public var redeemed: Amount = 0
    /// The final redeem transactions that paid it, oldest first.
    public var transactions: [Bytes32] = []

    public init() {}

    public enum State: String, Sendable {
        /// Nothing of it on chain.
        case received
        /// Some of it in a redeem not yet final.
        case redeeming
        /// All of it paid by the vault.
        case redeemed
        /// Some of it paid; the rest paid onward, still held, or refused by the vault.
        case partRedeemed = "part-redeemed"
    }

    /// Where a payment of `amount` stands.
    public func state(of amount: Amount) -> State {
        if redeeming > 0 { return .redeeming }
        if redeemed > 0 { return redeemed >= amount ? .redeemed : .partRedeemed }
        return .received
    }
}

/// Sums by what the owner can do with the money now.
public struct Balance: Equatable, Sendable {
    /// Unspent coins alive long enough to pay with: payable onward offline, or redeemable.
    public var spendable: Amount = 0
    /// Unspent coins that expire within the minimum lifetime a payee requires: they can no
    /// longer be paid onward, only settled.
    public var expiring: Amount = 0
    /// Unspent coins past their expiry.
    public var expired: Amount = 0
    /// Paid out and awaiting the payee's receipt: the amount of each handed-over payment, and
    /// the coins reserved by a payment not yet handed over (its change is not spendable yet).
    public var pending: Amount = 0
    /// The part of `pending` that is coins reserved by a payment not yet handed over.
    public var reserved: Amount = 0
    /// Paid out on a link that died after sending: the payee may or may not have it.
    public var inDoubt: Amount = 0
    /// Held and not yet settled on chain (unspent and unexpired, or being redeemed): what
    /// settlement would claim from issuers' collateral.
    public var receivedUnsettled: Amount = 0
    /// In redeem transactions recorded or sent, not yet final on chain.
    public var redeeming: Amount = 0
    /// Redeemed: the vault paid it to this wallet's address on chain (no longer offline money).
    public var redeemed: Amount = 0

    public init() {}
}

public struct EvidenceRecord: Sendable {
    public let evidence: DoubleSpendEvidence
    public let foundAt: UInt64

    public init(
        evidence: DoubleSpendEvidence, foundAt: UInt64
    ) {
        self.evidence = evidence
        self.foundAt = foundAt
    }
}

/// A payment that left the node without a receipt (pending or in doubt): what the chain can
/// settle it by.
public struct UnsettledPayment: Sendable, Equatable {
    public let requestID: Bytes32
    public let state: OutgoingPaymentState
    /// Each input coin and the transfer of this payment that spends it.
    public let inputs: [CoinID: Bytes32]
    /// The earliest expiry of its inputs: the coins it pays die then, and with them any
    /// chance of redeeming its transfer.
    public let window: UInt64

    public init(
        requestID: Bytes32, state: OutgoingPaymentState, inputs: [CoinID: Bytes32], window: UInt64
    ) {
        self.requestID = requestID
        self.state = state
        self.inputs = inputs
        self.window = window
    }
}

/// Which issuers' coins a wallet accepts offline (Docs/PROTOCOL.md, "Issuer acceptance").
public enum AcceptanceMode: String, Sendable, CaseIterable {
    /// Only trusted issuers (the default).
    case trusted
    /// Trusted issuers, and any other up to its collateral in the last snapshot.
    case open
}
