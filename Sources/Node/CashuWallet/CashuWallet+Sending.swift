import Cashu
import CashuMint
import CashuStore
import Codecs
import NodeKit
import Secp256k1

extension CashuWallet {
    /// Gives `amount` offline, from the wallet's own proofs that make it exactly. The token
    /// carries each proof's DLEQ proof and blinding factor, so the payee can check it offline.
    public func give(
        _ amount: UInt64, unit: String, mint: String, memo: String?, now: UInt64
    ) throws(NodeError) -> CashuPayment {
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
            let keysets = try store.keysets(mint: client.url)
            guard let active = keysets.first(where: { $0.unit == unit && $0.active }) else {
                throw NodeError(.missing("mint \(client.url) has no active keyset in \(unit)"))
            }
            let own = try store.proofs(mint: client.url, states: ["unspent"])
                .filter { proof in keysets.first { $0.id == proof.keysetID }?.unit == unit }
                .sorted { $0.amount > $1.amount }
            var chosen: [Proof] = []
            var total: UInt64 = 0
            var fee: UInt64 = 0
            for proof in own where total < amount + fee {
                chosen.append(proof)
                total += proof.amount
                let ppk = chosen.reduce(UInt64(0)) { sum, input in
                    sum + (keysets.first { $0.id == input.keysetID }?.inputFeePPK ?? 0)
                }
                fee = (ppk + 999) / 1000
            }
            guard total >= amount + fee, amount > 0 else {
                throw NodeError(
                    .usage(
                        "\(own.reduce(0) { $0 + $1.amount }) \(unit) spendable at \(client.url), \(amount) asked (and \(fee) fee)"
                    ))
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
                if case .timeout = error.kind {
                } else if case .unreachable = error.kind {
                } else {
                    try store.failSwap(swapID, refused: [:], now: now())
                }
                throw NodeError(.unavailable("\(error)"))
            }
            let proofs = try zip(outputs, signatures).map { try $0.proof(from: $1, keyset: active) }
            try store.completeSwap(swapID, proofs: proofs, now: now())
            let ys = Set(try proofs.prefix(payment.count).map { try $0.y() })
            return try store.send(
                amount: amount, unit: unit, mint: client.url, memo: memo, now: now(), only: ys
            ) {
                Token(mint: client.url, unit: unit, memo: memo, proofs: $0).encoded()
            }
        } catch { throw Self.failed(error) }
    }
}
