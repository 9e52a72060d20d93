import Tender

/// How waiting for a transaction's receipt ended.
public enum ReceiptOutcome: Sendable, Hashable {
    /// Mined in a block that is still canonical, `confirmations` deep (1: the head block).
    /// The transaction may have reverted: see `receipt.succeeded`.
    case confirmed(TransactionReceipt, confirmations: UInt64)
    /// The receipt seen earlier is no longer in the canonical chain: its block was replaced
    /// (the transaction may be mined again later, or never). Not a success.
    case reorganized(TransactionReceipt)
    /// The timeout passed first: not mined (`seen` nil) or not yet deep enough.
    case pending(seen: TransactionReceipt?)
}

extension EthereumRPC {
    /// Polls until the transaction is `confirmations` blocks deep in the canonical chain, its
    /// block is replaced (a reorg), or `timeout` passes. `seen`: a receipt observed before
    /// (e.g. before a restart), checked against the chain as if it had been seen here.
    ///
    /// The reorg rule (Docs/EVM.md): a receipt counts only while the canonical block at its
    /// height has its block hash; a receipt that vanishes after being seen is a reorg too.
    public func waitForReceipt(
        _ hash: Bytes32, confirmations: UInt64 = 1, timeout: Duration,
        pollInterval: Duration = .milliseconds(200), seen: TransactionReceipt? = nil
    ) async throws(EVMError) -> ReceiptOutcome {
        precondition(confirmations >= 1, "a mined transaction has at least one confirmation")
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var seen = seen
        while true {
            let receipt = try await transactionReceipt(hash)
            if let earlier = seen, receipt?.blockHash != earlier.blockHash {
                return .reorganized(earlier)
            }
            if let receipt {
                guard try await block(.number(receipt.blockNumber))?.hash == receipt.blockHash
                else {
                    return .reorganized(receipt)
                }
                seen = receipt
                let head = try await blockNumber()
                let depth = head >= receipt.blockNumber ? head - receipt.blockNumber + 1 : 0
                if depth >= confirmations { return .confirmed(receipt, confirmations: depth) }
            }
            guard clock.now + pollInterval < deadline else { return .pending(seen: seen) }
            do { try await clock.sleep(for: pollInterval) } catch { throw .cancelled }
        }
    }
}
