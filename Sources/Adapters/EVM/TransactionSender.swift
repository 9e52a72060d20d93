import BigInt
import Secp256k1
import Tender

/// Builds, signs and broadcasts one account's transactions on one chain, and follows them
/// to their receipts. Docs/EVM.md describes the nonce, fee and reorg rules.
///
/// An actor so that two sends of one instance never take the same nonce; the `NonceStore`
/// carries the rule across instances and restarts.
public actor TransactionSender {
    public nonisolated let address: Address
    public nonisolated let chainID: UInt64
    public nonisolated let rpc: EthereumRPC
    public nonisolated let feePolicy: FeePolicy
    private let key: PrivateKey
    private let nonces: any NonceStore
    /// The next nonce this instance would hand out, so concurrent sends do not collide while
    /// one awaits the store.
    private var handedOut: UInt64?
    /// The last `send` in line: the next waits for it.
    private var lastSend: Task<Void, Never>?

    public init(
        key: PrivateKey, chainID: UInt64, rpc: EthereumRPC, nonces: any NonceStore,
        feePolicy: FeePolicy = FeePolicy()
    ) {
        self.key = key
        self.address = Address(publicKey: key.publicKey)
        self.chainID = chainID
        self.rpc = rpc
        self.nonces = nonces
        self.feePolicy = feePolicy
    }

    /// Signs a transaction with the next nonce, recorded as used before it is returned (so it
    /// is never reused after a crash, even if the transaction was broadcast). The endpoint's
    /// chain is checked first: a transaction for another chain is refused before it exists.
    /// `gas` nil: estimated, plus 20 %. `fees` nil: proposed by the fee policy.
    public func prepare(
        to: Address?, value: Wei = 0, data: [UInt8] = [], gas: UInt64? = nil, fees: Fees? = nil
    ) async throws -> SignedTransaction {
        let checks = try await rpc.batch([
            RPCCall("eth_chainId"),
            RPCCall("eth_getTransactionCount", [.string(address.checksummed), "pending"]),
        ])
        let served = try checks[0].get().uint64("eth_chainId")
        guard served == chainID else { throw EVMError.wrongChain(expected: chainID, got: served) }
        let pending = try checks[1].get().uint64("eth_getTransactionCount")
        let gasLimit: UInt64
        if let gas {
            gasLimit = gas
        } else {
            let estimate = try await rpc.estimateGas(
                CallRequest(from: address, to: to, value: value, data: data))
            gasLimit = estimate + estimate / 5
        }
        let chosenFees: Fees
        if let fees { chosenFees = fees } else { chosenFees = try await rpc.proposeFees(feePolicy) }
        let stored = try await nonces.nextNonce(for: address, chainID: chainID) ?? 0
        // The rule: never below what this node handed out, never below the chain's count.
        let nonce = max(stored, pending, handedOut ?? 0)
        handedOut = nonce + 1
        try await nonces.advance(to: nonce + 1, for: address, chainID: chainID)
        let transaction = Transaction(
            chainID: chainID, nonce: nonce, fees: chosenFees, gas: gasLimit, to: to, value: value,
            data: data)
        return try transaction.signed(with: key)
    }

    /// Broadcasts a prepared transaction. If the node refuses it (an RPC error: nothing was
    /// sent), its nonce is given back; after a transport error it stays used, and the caller
    /// broadcasts the same transaction again.
    @discardableResult
    public func broadcast(_ transaction: SignedTransaction) async throws -> SignedTransaction {
        do {
            try await rpc.sendRawTransaction(transaction)
            return transaction
        } catch {
            switch error {
            case .rpc, .executionReverted: try await giveBack(transaction.transaction.nonce)
            default: break
            }
            throw error
        }
    }

    /// `prepare`, then `broadcast`, one send after the other: each leaves before the next
    /// takes its nonce, so the node sees them in nonce order (a node that refuses a gap, as
    /// dev chains do, would refuse nonce n + 1 arriving before n).
    @discardableResult
    public func send(
        to: Address?, value: Wei = 0, data: [UInt8] = [], gas: UInt64? = nil, fees: Fees? = nil
    ) async throws -> SignedTransaction {
        let previous = lastSend
        let this = Task {
            await previous?.value
            return try await broadcast(
                prepare(to: to, value: value, data: data, gas: gas, fees: fees))
        }
        lastSend = Task { _ = try? await this.value }
        return try await this.value
    }

    /// The same transaction (same nonce) with fees a node accepts in its place: each field
    /// at least 10 % above the stuck one's, and at least what the policy proposes now.
    public func replace(_ stuck: SignedTransaction) async throws -> SignedTransaction {
        let replacement = try stuck.transaction.replacement(
            proposed: try await rpc.proposeFees(feePolicy)
        ).signed(with: key)
        try await rpc.sendRawTransaction(replacement)
        return replacement
    }

    private func giveBack(_ nonce: UInt64) async throws {
        if handedOut == nonce + 1 { handedOut = nonce }
        try await nonces.release(nonce, for: address, chainID: chainID)
    }
}
