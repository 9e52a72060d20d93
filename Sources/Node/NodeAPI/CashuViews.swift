import CashuStore
import Hummingbird
import PaymentCodes

// The Cashu wallet as the API answers it (Docs/OPERATIONS.md). Amounts are strings in the
// unit's smallest part (cents for usd), `display` as people read them.

/// A token the node took (or gave), and what became of it at its mint.
struct CashuPaymentView: ResponseEncodable, Codable, Equatable, Sendable {
    let id: Int64
    let direction: String
    let mint: String
    let unit: String
    let amount: String
    let display: String
    let memo: String?
    /// received (offline, at risk until swapped), swapping, swapped, part-refused, refused, sent.
    let state: String
    /// The part the mint refused (spent elsewhere first), and why.
    let refused: String
    let refusal: String?
    /// The part locked to the node's key (NUT-11), and until when the payer may take it back.
    let locked: String
    let lockedUntil: UInt64?
    let createdAt: UInt64
    let updatedAt: UInt64

    init(_ payment: CashuPayment) {
        id = payment.id
        direction = payment.direction.rawValue
        mint = payment.mint
        unit = payment.unit
        amount = String(payment.amount)
        display = CashuUnit.text(UInt128(payment.amount), unit: payment.unit)
        memo = payment.memo
        state = payment.state.rawValue
        refused = String(payment.refused)
        refusal = payment.refusal
        locked = String(payment.locked)
        lockedUntil = payment.lockedUntil
        createdAt = payment.createdAt
        updatedAt = payment.updatedAt
    }
}

struct CashuPaymentsView: ResponseEncodable, Codable {
    let payments: [CashuPaymentView]
}

/// What the wallet holds at one mint in one unit.
struct CashuBalanceView: Codable, Equatable {
    let mint: String
    let unit: String
    /// Swapped: the node's own.
    let spendable: String
    /// Taken offline, not swapped yet: lost if the payer spends it elsewhere first.
    let atRisk: String
    /// Of that, locked to the node's key: no one else can spend it.
    let locked: String
    /// In a swap whose answer has not come yet.
    let swapping: String
    let display: String

    init(_ balance: CashuBalance) {
        mint = balance.mint
        unit = balance.unit
        spendable = String(balance.spendable)
        atRisk = String(balance.atRisk)
        locked = String(balance.locked)
        swapping = String(balance.swapping)
        display = CashuUnit.text(UInt128(balance.spendable), unit: balance.unit)
    }
}

struct CashuBalancesView: ResponseEncodable, Codable {
    /// The key tokens may be locked to (compressed, hex): a payer's wallet locks to it.
    let lockKey: String
    /// The units the held mints issue (`sat`, `usd`, …): what a request may ask for.
    let units: [String]
    let balances: [CashuBalanceView]
}

/// A NUT-18 request the node makes: `request` is the `creqA…` text to show as a code.
struct CashuRequestView: ResponseEncodable, Codable {
    let request: String
    let id: String
    let amount: String
    let unit: String
    let display: String
    let mints: [String]
    /// The key the token must be locked to (P2PK), when the node takes only locked tokens.
    let lockKey: String?

    init(_ request: CashuPaymentRequest) {
        self.request = request.encodedA
        id = request.id ?? ""
        amount = String(request.amount ?? 0)
        unit = request.unit ?? "sat"
        display = CashuUnit.text(UInt128(request.amount ?? 0), unit: request.unit)
        mints = request.mints ?? []
        lockKey = request.lock?.data
    }
}
