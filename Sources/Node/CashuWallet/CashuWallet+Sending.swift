import Cashu
import CashuMint
import CashuStore
import Codecs
import NodeKit
import PaymentCodes
import Secp256k1

extension CashuWallet {
    /// The refusal of a payment larger than what is spendable, in the unit a person reads,
    /// naming what is held but not spendable yet.
    func insufficient(
        _ amount: UInt64, unit: String, mint: String, fee: UInt64 = 0
    ) throws -> NodeError {
        let balance = try store.balances(now: nil).first { $0.mint == mint && $0.unit == unit }
        let text = { (value: UInt64) in CashuUnit.text(UInt128(value), unit: unit) }
        var reason =
            "insufficient funds: \(text(balance?.spendable ?? 0)) spendable at \(mint), \(text(amount)) asked"
        if fee > 0 { reason += " and \(text(fee)) fee" }
        let waiting = (balance?.atRisk ?? 0) + (balance?.locked ?? 0) + (balance?.swapping ?? 0)
        if waiting > 0 {
            reason +=
                "; \(text(waiting)) taken offline becomes spendable once swapped at the mint (a sync)"
        }
        return NodeError(.refusedEcash(code: "insufficient-funds", reason: reason))
    }

    /// Gives `amount` offline, from the wallet's own proofs that make it exactly. The token
    /// carries each proof's DLEQ proof and blinding factor, so the payee can check it offline.
    public func give(
        _ amount: UInt64, unit: String, mint: String, memo: String?, now: UInt64
    ) throws(NodeError) -> CashuPayment {
        guard amount > 0 else { throw NodeError(.usage("the amount must be more than 0")) }
        do {
            return try store.send(amount: amount, unit: unit, mint: mint, memo: memo, now: now) {
                proofs in
                Token(mint: mint, unit: unit, memo: memo, proofs: proofs).encoded()
            }
        } catch { throw Self.failed(error) }
    }

    /// Gives `amount` through a swap at the mint: the wallet's proofs are split into the amount
    /// (locked to `lockTo`, NUT-11, when given: only that key can spend them, and this wallet
    /// can take them back after `refundAfter` seconds) and change.
    public func give(
        _ amount: UInt64, unit: String, memo: String?, lockTo: PublicKey?, refundAfter: UInt64,
        client: MintClient, now: @Sendable () -> UInt64
    ) async throws(NodeError) -> CashuPayment {
        do {
            guard amount > 0 else { throw NodeError(.usage("the amount must be more than 0")) }
            let (active, keysets) = try activeKeyset(unit: unit, mint: client.url)
            guard amount < UInt64.max / 2 else {
                throw NodeError(.usage("\(amount) is more than any Cashu wallet holds"))
            }
            let chosen = Self.inputs(
                for: amount, from: try ownProofs(unit: unit, mint: client.url, keysets: keysets),
                keysets: keysets)
            let total = chosen.reduce(UInt64(0)) { $0 + $1.amount }
            let fee = Keyset.fee(for: chosen, in: keysets)
            guard total >= amount + fee else {
                throw try insufficient(amount, unit: unit, mint: client.url, fee: fee)
            }
            // Asked before anything is recorded: a mint that cannot be reached freezes nothing.
            do { _ = try await client.keysetStates() } catch {
                throw NodeError(
                    .unavailable(error.description),
                    note:
                        "the proofs held cannot make this amount exactly (or a lock was asked), so they must be split at the mint first, which needs it online; nothing was changed"
                )
            }
            var generator = SystemRandomNumberGenerator()
            let locktime = String(now() + refundAfter)
            // Each locked output its own nonce, so no two secrets (and Ys) are the same.
            func lockedSecret(_ generator: inout SystemRandomNumberGenerator) -> String? {
                guard let lockTo else { return nil }
                let nonce = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
                return SpendingCondition(
                    kind: "P2PK", nonce: Hex.encode(nonce, prefix: false),
                    data: Hex.encode(lockTo.compressed, prefix: false),
                    tags: [
                        ["sigflag", "SIG_INPUTS"], ["locktime", locktime],
                        ["refund", Hex.encode(lockPublicKey.compressed, prefix: false)],
                    ]
                ).secret
            }
            let payment = amount.powersOfTwo.map { value in
                PreparedOutput.random(
                    amount: value, keysetID: active.id, secret: lockedSecret(&generator),
                    using: &generator)
            }
            let change = (total - amount - fee).powersOfTwo.map {
                PreparedOutput.random(amount: $0, keysetID: active.id, using: &generator)
            }
            let outputs = payment + change
            let inputs = try unlocked(chosen, outputs: outputs)
            let swapID = try store.beginSwap(
                mint: client.url, inputs: chosen, outputs: outputs, now: now())
            let signatures: [BlindSignature]
            do {
                signatures = try await client.swap(
                    inputs: inputs, outputs: outputs.map(\.message))
            } catch {
                // Only a definite refusal ends the swap here: after anything else the mint may
                // have carried it out, and the next sync learns which from its records.
                switch error.kind {
                case .refused(_?, _, let status)
                where (400..<500).contains(status) && status != 429:
                    try store.failSwap(swapID, refused: [:], now: now())
                    throw NodeError(.refusedEcash(code: "mint-refused", reason: error.description))
                case .invalidRequest:
                    try store.failSwap(swapID, refused: [:], now: now())
                    throw NodeError(.unavailable(error.description))
                default:
                    throw NodeError(
                        .unavailable(error.description),
                        note:
                            "the proofs it would have split are held as swapping until a sync learns from the mint whether it did"
                    )
                }
            }
            let proofs = try zip(outputs, signatures).map { try $0.proof(from: $1, keyset: active) }
            let url = client.url
            let given = try store.completeSwap(
                swapID, proofs: proofs, now: now(),
                giving: CashuDatabase.Giving(
                    ys: Set(try proofs.prefix(payment.count).map { try $0.y() }), unit: unit,
                    memo: memo
                ) { Token(mint: url, unit: unit, memo: memo, proofs: $0).encoded() })
            guard let given else { throw NodeError(.io("the give's payment was not recorded")) }
            return given
        } catch { throw Self.failed(error) }
    }
}
