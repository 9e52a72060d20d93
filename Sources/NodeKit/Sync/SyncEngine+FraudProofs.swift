import Tender
import WalletStore

extension SyncEngine {
    /// Sends the vault every double spend this wallet holds evidence of and the vault has not
    /// on record (Docs/PROTOCOL.md §11, "Fraud proofs"): each signed and recorded before it
    /// is sent, sent again while unmined, settled when the vault's `doubleSpender` names the
    /// owner. A proof the chain refuses is reported and does not stop the pass.
    public func submitFraudProofs(
        events: @Sendable (Event) -> Void = { _ in }
    ) async throws(NodeError) {
        let records = try wallet.fraudProofs()
        let open = try wallet.evidence().map(\.evidence).filter {
            records[$0.coin]?.state != .proven
        }
        guard !open.isEmpty else { return }
        let proven = try await chain.provenFrauds(
            vault: wallet.domain.vault, coins: open.map(\.coin))
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
                        events(.fraudProofRefused(coin: evidence.coin, reason: "reverted"))
                    }
                } else {
                    try await chain.send(raw: record.raw)
                }
                continue
            }
            let nonce = try await nextNonce()
            let signed: (hash: Bytes32, raw: [UInt8])
            do {
                signed = try await chain.signFraudProof(
                    vault: wallet.domain.vault, evidence: evidence, nonce: nonce)
            } catch {
                // The node's simulation refuses it (a proof the vault would revert): said,
                // nothing recorded, settlement goes on.
                events(.fraudProofRefused(coin: evidence.coin, reason: error.description))
                continue
            }
            try wallet.recordFraudProof(
                coin: evidence.coin, hash: signed.hash, raw: signed.raw, chainID: chain.chainID,
                sender: chain.sender, nonce: nonce, now: now)
            try await chain.send(raw: signed.raw)
            events(.fraudProofSent(coin: evidence.coin, tx: signed.hash))
        }
    }
}
