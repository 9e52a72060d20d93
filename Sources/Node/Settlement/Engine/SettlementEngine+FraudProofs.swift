import NodeKit
import Tender
import WalletStore

extension SettlementEngine {
    /// Sends the vault the double spends that cost this wallet a coin, of which it holds
    /// evidence and the vault has no record (Docs/PROTOCOL.md §11, "Fraud proofs"): each
    /// signed and recorded before it is sent, sent again while unmined, settled when the
    /// vault's `doubleSpentBy` has the owner on record for the coin. A proof the chain refuses
    /// is reported and does not stop the pass.
    ///
    /// A proof moves no money and its sender pays the gas, so the node pays only where it
    /// lost: a coin of its own refused by the vault (`conflicted`), and in that coin's proof
    /// the very coin the vault shows spent by another transfer than the one the proof holds.
    /// A payer who signs two spends of each coin its payment consumes (under as many keys as
    /// it likes), then pays, makes the payee pay nothing: each proof the payee sends answers
    /// a double spend the payer redeemed on chain. And one proof per double spender: its
    /// address is on record after the first.
    public func submitFraudProofs(
        events: @Sendable (Event) -> Void = { _ in }
    ) async throws(NodeError) {
        let records = try wallet.fraudProofs()
        let evidence = try wallet.evidence().map(\.evidence)
        let unsettled = evidence.filter { records[$0.coin]?.state != .proven }
        guard !unsettled.isEmpty else { return }
        let lost = try wallet.coinsLostToDoubleSpends()
        let fresh = unsettled.filter { records[$0.coin] == nil && lost.contains($0.coin) }
        var shown = Set<CoinID>()
        if !fresh.isEmpty {
            let coins = fresh.map(\.coin)
            let onChain = try await chain.consumed(vault: wallet.domain.vault, coins: coins)
            let ours = try wallet.seenSpendDigests(of: coins)
            shown = Set(
                coins.filter { coin in
                    let spender = onChain[coin] ?? .zero
                    return spender != .zero && spender != ours[coin]
                })
        }
        let open = unsettled.filter { records[$0.coin] != nil || shown.contains($0.coin) }
        guard !open.isEmpty else { return }
        // Spenders this node has a proof of (sent or on record) already.
        var covered = Set(evidence.filter { records[$0.coin] != nil }.map(\.spender))
        // Read before the receipts (see `unmined`), and only when a proof was sent.
        let minedNonce =
            open.contains { records[$0.coin] != nil } ? try await chain.minedNonce() : nil
        let proven = try await chain.provenFrauds(vault: wallet.domain.vault, of: open)
        let now = clock.now()
        for evidence in open {
            if proven.contains(evidence.coin) {
                try wallet.fraudProven(evidence.coin, now: now)
                events(
                    .fraudProven(
                        coin: evidence.coin, owner: evidence.spender,
                        byThisNode: records[evidence.coin] != nil))
                continue
            }
            if let record = records[evidence.coin] {
                if let receipt = try await chain.receipt(of: record.hash) {
                    // Mined, yet the vault has no record: it refused this proof.
                    if !receipt.succeeded {
                        try wallet.forgetFraudProof(evidence.coin)
                        events(.fraudProofRefused(coin: evidence.coin, .reverted))
                    }
                } else {
                    // A sent proof: the mined nonce was read above.
                    try await unmined(record, minedNonce: minedNonce!, now: now, events: events)
                }
                continue
            }
            guard !covered.contains(evidence.spender) else { continue }
            let nonce = try await nextNonce()
            let signed: (hash: Bytes32, raw: [UInt8])
            do {
                signed = try await chain.signFraudProof(
                    vault: wallet.domain.vault, evidence: evidence, nonce: nonce)
            } catch {
                // The node's simulation refuses it (a proof the vault would revert): said,
                // nothing recorded, settlement goes on.
                events(
                    .fraudProofRefused(coin: evidence.coin, .refusedToSimulate(error.description)))
                continue
            }
            try wallet.recordFraudProof(
                coin: evidence.coin, hash: signed.hash, raw: signed.raw, chainID: chain.chainID,
                sender: chain.sender, nonce: nonce, now: now)
            covered.insert(evidence.spender)
            try await chain.send(raw: signed.raw)
            events(.fraudProofSent(coin: evidence.coin, tx: signed.hash))
        }
    }

    /// A sent proof in no block: dropped when another transaction took its nonce (the next
    /// pass signs it anew), replaced with higher fees when stuck, else sent again. A replaced
    /// proof mined after all is seen by `provenFrauds`, which reads the vault, not a hash.
    private func unmined(
        _ record: FraudProofRecord, minedNonce: UInt64, now: UInt64,
        events: @Sendable (Event) -> Void
    ) async throws(NodeError) {
        guard let nonce = record.nonce else {
            try await chain.send(raw: record.raw)
            return
        }
        if minedNonce > nonce {
            try wallet.forgetFraudProof(record.coin)
            events(.dropped(tx: record.hash, coins: 0))
            return
        }
        guard stuck(since: record.signedAt, now: now) else {
            try await chain.send(raw: record.raw)
            return
        }
        let signed = try await chain.signReplacement(of: record.raw)
        try wallet.recordFraudProof(
            coin: record.coin, hash: signed.hash, raw: signed.raw, chainID: chain.chainID,
            sender: chain.sender, nonce: nonce, now: now)
        events(.replaced(tx: record.hash, by: signed.hash))
        try await chain.send(raw: signed.raw)
    }
}
