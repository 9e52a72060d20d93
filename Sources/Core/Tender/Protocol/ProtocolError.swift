/// Why the protocol core refused something. Every rejection names what was wrong.
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// Bytes that do not decode into the expected structure.
        case malformed(String)
        /// Signed for another chain or vault than this node's.
        case wrongDomain(expected: Domain, actual: Domain)
        case badNoteSignature(serial: Bytes32, issuer: Address, recovered: Address?)
        case badTransferSignature(transfer: Int, owner: Address, recovered: Address?)
        case badReceiptSignature(expected: Address, recovered: Address?)
        /// The payment's terms are not signed by the payer of the coins they name (a field
        /// was altered after signing, or the coins come from someone else).
        case badPaymentSignature(payer: Address, recovered: Address?)
        /// A transfer spends a coin the proof does not contain (or not before the transfer).
        case unknownInput(transfer: Int, coin: CoinID)
        case duplicateInput(transfer: Int, coin: CoinID)
        /// The same note or output appears twice in one proof.
        case duplicateCoin(CoinID)
        /// Inputs of one transfer must share owner, issuer and asset.
        case mixedInputs(transfer: Int, field: String)
        case emptyTransfer(transfer: Int)
        case zeroAmount(transfer: Int, output: Int)
        case zeroNoteAmount(note: Int)
        case conservationBroken(transfer: Int, asset: Address, inputs: Amount, outputs: Amount)
        case amountOverflow(String)
        case expired(coin: CoinID, expiry: UInt64, now: UInt64)
        /// A paid coin expires before the payee has `minimum` seconds to settle it.
        case expiresTooSoon(coin: CoinID, expiry: UInt64, now: UInt64, minimum: UInt64)
        /// A note or transfer of the proof from which no paid coin descends.
        case unrelatedProofItem(String)
        case hopCapExceeded(coin: CoinID, depth: Int, cap: Int)
        case proofTooLarge(String)
        case untrustedIssuer(Address)
        case exposureExceeded(issuer: Address, asset: Address, requested: Amount, remaining: Amount)
        /// An issuer's notes beyond its collateral: `outstanding` already issued and not
        /// expired, `requested` more, `collateral` in the vault.
        case beyondCollateral(
            issuer: Address, asset: Address, collateral: Amount, outstanding: Amount,
            requested: Amount)
        /// Open mode: the issuer's collateral may be withdrawn before the coin expires.
        case collateralUnlocked(issuer: Address, lockedUntil: UInt64, expiry: UInt64)
        /// An input was already consumed by a different transfer of the same owner.
        /// Evidence, and the issuer of the coin spent twice (whose vault it concerns).
        case doubleSpend(DoubleSpendEvidence, issuer: Address)
        /// The coin is already in this wallet (received twice, or replayed).
        case alreadyHeld(CoinID)
        case paymentMismatch(PaymentMismatch)
        case requestAlreadyPaid(requestID: Bytes32)
        /// A receipt (or an export) names a request this wallet never paid.
        case unknownRequest(Bytes32)
        case requestExpired(requestID: Bytes32, expiry: UInt64, now: UInt64)
        /// A payment for no request of the payee's, of less than the least the payee takes
        /// unasked in that asset (its floor; nil: an asset it takes nothing unasked in).
        case belowFloor(asset: Address, amount: Amount, floor: Amount?)
        case invalidTransition(state: String, event: String)
        /// Not enough spendable coins of `asset`; what else the wallet holds of it, and why it
        /// cannot pay with it.
        case insufficientFunds(
            asset: Address, requested: Amount, available: Amount, pending: Amount = 0,
            expiring: Amount = 0, expired: Amount = 0, tooDeep: Amount = 0)
        case invalidEvidence(String)
    }

    public let kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    /// A short stable name for scripts (`--json`) and exit-code mapping.
    public var code: String {
        switch kind {
        case .malformed: "malformed"
        case .wrongDomain: "wrong-domain"
        case .badNoteSignature: "bad-note-signature"
        case .badTransferSignature: "bad-transfer-signature"
        case .badReceiptSignature: "bad-receipt-signature"
        case .badPaymentSignature: "bad-payment-signature"
        case .unknownInput: "unknown-input"
        case .duplicateInput: "duplicate-input"
        case .duplicateCoin: "duplicate-coin"
        case .mixedInputs: "mixed-inputs"
        case .emptyTransfer: "empty-transfer"
        case .zeroAmount, .zeroNoteAmount: "zero-amount"
        case .conservationBroken: "conservation-broken"
        case .amountOverflow: "amount-overflow"
        case .expired: "expired"
        case .expiresTooSoon: "expires-too-soon"
        case .unrelatedProofItem: "unrelated-proof-item"
        case .hopCapExceeded: "hop-cap-exceeded"
        case .proofTooLarge: "proof-too-large"
        case .untrustedIssuer: "untrusted-issuer"
        case .exposureExceeded: "exposure-exceeded"
        case .beyondCollateral: "beyond-collateral"
        case .collateralUnlocked: "collateral-unlocked"
        case .doubleSpend: "double-spend"
        case .alreadyHeld: "already-held"
        case .paymentMismatch: "payment-mismatch"
        case .requestAlreadyPaid: "request-already-paid"
        case .unknownRequest: "unknown-request"
        case .requestExpired: "request-expired"
        case .belowFloor: "below-floor"
        case .invalidTransition: "invalid-transition"
        case .insufficientFunds: "insufficient-funds"
        case .invalidEvidence: "invalid-evidence"
        }
    }

    public var description: String { description(in: PlainWording()) }

    /// The sentence in a front end's `wording`: every amount of a known asset in that asset's
    /// units (`need 9.00 DEV`), what resolves it in the front end's terms.
    public func description(in wording: some ErrorWording) -> String {
        switch kind {
        case .malformed(let what): "malformed input: \(what)"
        case .wrongDomain(let expected, let actual):
            actual.chainID != expected.chainID
                ? "wrong chain id: signed for chain \(actual.chainID), this node uses chain \(expected.chainID)"
                : "wrong vault: signed for vault \(actual.vault), this node uses \(expected.vault)"
        case .badNoteSignature(let serial, let issuer, let recovered):
            "note \(serial.short) is not signed by its issuer \(issuer) (signature recovers to \(recovered?.description ?? "nothing"))"
        case .badTransferSignature(let transfer, let owner, let recovered):
            "transfer #\(transfer) is not signed by the owner \(owner) of its inputs (signature recovers to \(recovered?.description ?? "nothing"))"
        case .badReceiptSignature(let expected, let recovered):
            "receipt is not signed by the payee \(expected) (signature recovers to \(recovered?.description ?? "nothing"))"
        case .badPaymentSignature(let payer, let recovered):
            "payment is not signed by \(payer), the payer of the coins it names (signature recovers to \(recovered?.description ?? "nothing")): it was altered after signing"
        case .unknownInput(let transfer, let coin):
            "transfer #\(transfer) spends coin \(coin.short), which the proof does not contain before it"
        case .duplicateInput(let transfer, let coin):
            "transfer #\(transfer) lists coin \(coin.short) twice"
        case .duplicateCoin(let coin): "coin \(coin.short) appears twice in the proof"
        case .mixedInputs(let transfer, let field):
            "transfer #\(transfer) mixes inputs of different \(field)s"
        case .emptyTransfer(let transfer): "transfer #\(transfer) has no inputs or no outputs"
        case .zeroAmount(let transfer, let output):
            "transfer #\(transfer) output #\(output) has a zero amount"
        case .zeroNoteAmount(let note): "note #\(note) has a zero amount"
        case .conservationBroken(let transfer, let asset, let inputs, let outputs):
            "transfer #\(transfer) breaks conservation: inputs sum to \(wording.amount(inputs, of: asset)), outputs to \(wording.amount(outputs, of: asset))"
        case .amountOverflow(let what): "amounts overflow 2^128 in \(what)"
        case .expired(let coin, let expiry, let now):
            "coin \(coin.short) expired at \(UTCTime.format(expiry)) (now \(UTCTime.format(now)))"
        case .expiresTooSoon(let coin, let expiry, let now, let minimum):
            "coin \(coin.short) expires at \(UTCTime.format(expiry)), \(expiry > now ? expiry - now : 0) s from now; a payee needs at least \(minimum) s to settle it"
        case .unrelatedProofItem(let item): "the proof's \(item) leads to no paid coin"
        case .hopCapExceeded(let coin, let depth, let cap):
            "coin \(coin.short) is \(depth) hops from its note; the cap is \(cap)"
        case .proofTooLarge(let what): "proof too large: \(what)"
        case .untrustedIssuer(let issuer): "issuer \(issuer) is not trusted by this node"
        case .beyondCollateral(
            let issuer, let asset, let collateral, let outstanding, let requested):
            "issuer \(issuer) has \(wording.amount(collateral, of: asset)) of asset \(asset) in the vault; these notes total \(wording.amount(requested, of: asset))"
                + (outstanding > 0
                    ? ", with \(wording.amount(outstanding, of: asset)) issued before and not yet expired (counted until they expire even when redeemed: the vault's payouts do not say which notes they came from)"
                    : "")
        case .exposureExceeded(let issuer, let asset, let requested, let remaining):
            "accepting \(wording.amount(requested, of: asset)) more from issuer \(issuer) (asset \(asset)) exceeds its remaining cap \(wording.amount(remaining, of: asset))"
        case .collateralUnlocked(let issuer, let lockedUntil, let expiry):
            lockedUntil == 0
                ? "issuer \(issuer)'s collateral is not locked: it could be withdrawn before the coin expires at \(UTCTime.format(expiry))"
                : "issuer \(issuer)'s collateral is locked only until \(UTCTime.format(lockedUntil)), before the coin expires at \(UTCTime.format(expiry))"
        case .doubleSpend(let evidence, _):
            "double spend: coin \(evidence.coin.short) was already consumed by another transfer of \(evidence.spender)"
        case .alreadyHeld(let coin): "coin \(coin.short) was already received by this wallet"
        case .paymentMismatch(let mismatch):
            "payment does not match its request: \(mismatch.description(in: wording))"
        case .requestAlreadyPaid(let id):
            "request \(id.short) was already paid by a different payment"
        case .unknownRequest(let id): "this wallet made no payment with request id \(id.hex)"
        case .requestExpired(let id, let expiry, let now):
            "request \(id.short) expired at \(UTCTime.format(expiry)) (now \(UTCTime.format(now)))"
        case .belowFloor(let asset, let amount, let floor?):
            "a payment of \(wording.amount(amount, of: asset)) without a request is below this payee's floor of \(wording.amount(floor, of: asset)) for payments it did not ask for"
        case .belowFloor(let asset, let amount, nil):
            "a payment of \(wording.amount(amount, of: asset)) without a request, in an asset this payee set no floor for: it takes payments it did not ask for only in assets it set a floor for"
        case .invalidTransition(let state, let event): "cannot \(event) a payment that is \(state)"
        case .insufficientFunds(
            let asset, let requested, let available, let pending, let expiring, let expired,
            let tooDeep):
            "insufficient funds: need \(wording.amount(requested, of: asset)), spendable \(wording.amount(available, of: asset))"
                + insufficientFundsDetail(
                    pending: pending, expiring: expiring, expired: expired, tooDeep: tooDeep,
                    asset: asset, wording: wording)
        case .invalidEvidence(let why): "invalid double-spend evidence: \(why)"
        }
    }
}

/// Why held coins are not spendable, for the "insufficient funds" message.
private func insufficientFundsDetail(
    pending: Amount, expiring: Amount, expired: Amount, tooDeep: Amount, asset: Address,
    wording: some ErrorWording
) -> String {
    let amounts = { (amount: Amount) in wording.amount(amount, of: asset) }
    var reasons: [String] = []
    if tooDeep > 0 {
        reasons.append(
            "\(amounts(tooDeep)) in coins passed on as many times as a coin may be offline: \(wording.step(.settle)) settles them, then they can be paid"
        )
    }
    if pending > 0 { reasons.append("\(amounts(pending)) paid out and awaiting receipts") }
    if expiring > 0 {
        reasons.append(
            "\(amounts(expiring)) expiring too soon to pay with (it can still be settled)")
    }
    if expired > 0 { reasons.append("\(amounts(expired)) expired") }
    return reasons.isEmpty ? "" : " (also held: " + reasons.joined(separator: "; ") + ")"
}

extension Bytes32 {
    /// The first 8 bytes in hex: enough to tell coins apart in a message.
    public var short: String { String(hex.prefix(18)) + "…" }
}
