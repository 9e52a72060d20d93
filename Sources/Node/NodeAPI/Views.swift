import Hummingbird
import NodeKit
import PaymentCodes
import Tender

// What the API answers, as JSON. Amounts are strings of base units (they can pass 2^53, where
// JavaScript numbers stop being exact), with `display` beside them as people read them
// ("2.50 USDC"); addresses are checksummed; times are Unix seconds.

/// An asset's symbol and decimals; both absent while they are not known (base units).
struct UnitView: Codable, Equatable, Sendable {
    let asset: String
    let symbol: String?
    let decimals: Int?

    init(asset: Address, _ denomination: Denomination) {
        self.asset = asset.checksummed
        symbol = denomination.symbol
        decimals = denomination.isKnown ? denomination.decimals : nil
    }
}

struct DomainView: Codable, Equatable {
    let chainId: UInt64
    let vault: String

    init(_ domain: Domain) {
        chainId = domain.chainID
        vault = domain.vault.checksummed
    }
}

struct StatusView: ResponseEncodable, Codable {
    let address: String
    let home: DomainView
    let domains: [DomainView]
    let startedAt: UInt64
    let uptimeSeconds: UInt64
    let sync: NodeState.SyncStatus
    /// Issuers' assets whose coins settlement holds back (a redeem of theirs alone reverted).
    let heldBack: [HeldBackView]
    let services: [String: String]
    /// What the point-of-sale page charges in: the home chain's own coin.
    let charge: UnitView
}

struct HeldBackView: Codable, Equatable {
    let chainId: UInt64
    let vault: String
    let issuer: String
    let asset: String
    let coins: Int
    /// Unix seconds: when its coins are tried again.
    let until: UInt64
    /// `reverted`: a batch of it alone reverted; `uncovered`: the vault refused its coins for
    /// want of the issuer's collateral.
    let reason: String

    init(_ hold: RedeemHold, in domain: Domain) {
        chainId = domain.chainID
        vault = domain.vault.checksummed
        issuer = hold.issuer.checksummed
        asset = hold.asset.checksummed
        coins = hold.coins
        until = hold.until
        reason = hold.reason.rawValue
    }
}

struct AssetBalanceView: Codable, Equatable {
    let asset: String
    let spendable: String
    let expiring: String
    let expired: String
    let pending: String
    let inDoubt: String
    let receivedUnsettled: String
    /// In redeem transactions not yet final on chain.
    let redeeming: String
    /// Paid by the vault to this node's address on chain.
    let redeemed: String
    let symbol: String?
    let decimals: Int?

    init(asset: Address, _ balance: Balance, _ denomination: Denomination = .baseUnits) {
        self.asset = asset.checksummed
        symbol = denomination.symbol
        decimals = denomination.isKnown ? denomination.decimals : nil
        spendable = String(balance.spendable)
        expiring = String(balance.expiring)
        expired = String(balance.expired)
        pending = String(balance.pending)
        inDoubt = String(balance.inDoubt)
        receivedUnsettled = String(balance.receivedUnsettled)
        redeeming = String(balance.redeeming)
        redeemed = String(balance.redeemed)
    }
}

struct DomainBalanceView: Codable {
    let chainId: UInt64
    let vault: String
    let assets: [AssetBalanceView]
}

struct BalanceView: ResponseEncodable, Codable {
    let address: String
    let domains: [DomainBalanceView]
}

struct IncomingPaymentView: Codable, Equatable, Sendable {
    let requestId: String
    let chainId: UInt64
    let vault: String
    let payer: String?
    let amount: String
    let asset: String
    let display: String?
    let memo: String
    let receivedAt: UInt64
    /// What became of its coins on chain (`IncomingSettlement.State`).
    let state: String
    let redeemed: String
    let redeeming: String
    let redeemTransactions: [String]

    init(_ record: IncomingPaymentRecord, domain: Domain, units: Denominations? = nil) {
        state = record.settlement.state(of: record.amount).rawValue
        redeemed = String(record.settlement.redeemed)
        redeeming = String(record.settlement.redeeming)
        redeemTransactions = record.settlement.transactions.map(\.hex)
        display = units?.format(record.amount, of: record.asset)
        requestId = record.requestID.hex
        chainId = domain.chainID
        vault = domain.vault.checksummed
        payer = record.payer?.checksummed
        amount = String(record.amount)
        asset = record.asset.checksummed
        memo = record.memo
        receivedAt = record.receivedAt
    }
}

struct OutgoingPaymentView: Codable {
    let requestId: String
    let chainId: UInt64
    let vault: String
    let payee: String
    let amount: String
    let asset: String
    let display: String?
    let memo: String
    let state: String
    let createdAt: UInt64
    let updatedAt: UInt64

    init(_ record: OutgoingPaymentRecord, domain: Domain, units: Denominations? = nil) {
        display = units?.format(record.amount, of: record.asset)
        requestId = record.requestID.hex
        chainId = domain.chainID
        vault = domain.vault.checksummed
        payee = record.payee.checksummed
        amount = String(record.amount)
        asset = record.asset.checksummed
        memo = record.memo
        state = record.state.rawValue
        createdAt = record.createdAt
        updatedAt = record.updatedAt
    }
}

struct PaymentsView: ResponseEncodable, Codable {
    let incoming: [IncomingPaymentView]
    let outgoing: [OutgoingPaymentView]
}

struct EvidenceView: Codable {
    let coin: String
    let spender: String
    let chainId: UInt64
    let vault: String
    let foundAt: UInt64
}

struct EvidenceListView: ResponseEncodable, Codable {
    let evidence: [EvidenceView]
}

/// A payment request the node issued, and where it stands.
struct RequestView: ResponseEncodable, Codable {
    let requestId: String
    let uri: String
    let amount: String
    let asset: String
    let display: String
    let memo: String
    let expiry: UInt64
    /// waiting, paid or expired.
    let state: String
    let payment: IncomingPaymentView?

    init(
        _ request: PaymentRequest, state: String, payment: IncomingPaymentView?,
        units: Denominations
    ) {
        display = units.format(request.amount, of: request.asset)
        requestId = request.id.hex
        uri = TenderURI.encode(request)
        amount = String(request.amount)
        asset = request.asset.checksummed
        memo = request.memo
        expiry = request.expiry
        self.state = state
        self.payment = payment
    }
}

struct SyncView: ResponseEncodable, Codable {
    let sync: NodeState.SyncStatus
}

/// A payment the node made on its own (`/api/payments` and its actions).
struct OutgoingPaymentResponse: ResponseEncodable {
    let payment: OutgoingPaymentView
}

struct LimitView: Codable {
    let payee: String?
    let asset: String
    let amount: String
    let periodSeconds: UInt64
    let used: String
    let remaining: String

    init(_ use: SpendingLimitUse) {
        payee = use.limit.payee?.checksummed
        asset = use.limit.asset.checksummed
        amount = String(use.limit.amount)
        periodSeconds = use.limit.period
        used = String(use.used)
        remaining = String(use.remaining)
    }
}

struct LimitsView: ResponseEncodable, Codable {
    let limits: [LimitView]
}
