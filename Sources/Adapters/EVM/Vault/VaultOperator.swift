import BigInt
import Codecs
import Secp256k1
import Tender

/// One account's dealings with a vault as an operator or issuer: deploying it, depositing
/// and locking collateral, withdrawing. Each call sends one transaction (two for a token
/// deposit: the allowance first) and returns once it is mined, or throws naming what failed.
/// For one-off commands: nonces come from the chain's count (nothing else sends for the
/// account meanwhile).
public struct VaultOperator: Sendable {
    public let sender: TransactionSender
    /// How long to wait for each receipt.
    public var timeout: Duration

    public init(
        key: PrivateKey, rpc: EthereumRPC, chainID: UInt64, timeout: Duration = .seconds(60)
    ) {
        self.sender = TransactionSender(
            key: key, chainID: chainID, rpc: rpc, nonces: ChainCountedNonces())
        self.timeout = timeout
    }

    public var address: Address { sender.address }

    /// Deploys the embedded vault (Contracts/Vault.vy): its address and receipt.
    public func deploy() async throws(EVMError) -> (vault: Address, receipt: TransactionReceipt) {
        let code: [UInt8]
        do { code = try Hex.decode(VaultInitCode.hex) } catch {
            preconditionFailure("the embedded vault code is not hex: \(error)")
        }
        let receipt = try await mined("deploying the vault") {
            try await sender.send(to: nil, data: code)
        }
        guard let vault = receipt.contractAddress else {
            throw .malformedResponse("the deployment's receipt names no contract address")
        }
        return (vault, receipt)
    }

    /// Adds `amount` of `asset` (the zero address: the native coin) to this account's
    /// collateral in `vault`; a token deposit approves the vault for `amount` first.
    @discardableResult
    public func deposit(
        _ amount: Wei, of asset: Address, into vault: Address
    ) async throws(EVMError) -> TransactionReceipt {
        if asset != .zero {
            _ = try await mined("approving the vault for \(amount) of token \(asset)") {
                try await sender.send(
                    to: asset,
                    data: ABI.call("approve(address,uint256)", [.address(vault), .uint(amount)]))
            }
        }
        return try await mined("depositing \(amount) into vault \(vault)") {
            try await sender.send(
                to: vault, value: asset == .zero ? amount : 0,
                data: VaultCalls.deposit(asset: asset, amount: amount))
        }
    }

    /// Locks this account's collateral in `vault` until `until` (Unix seconds).
    @discardableResult
    public func lock(until: UInt64, in vault: Address) async throws(EVMError) -> TransactionReceipt
    {
        try await mined("locking the collateral until \(until)") {
            try await sender.send(to: vault, data: VaultCalls.extendLock(until: until))
        }
    }

    @discardableResult
    public func withdraw(
        _ amount: Wei, of asset: Address, from vault: Address
    ) async throws(EVMError) -> TransactionReceipt {
        try await mined("withdrawing \(amount) from vault \(vault)") {
            try await sender.send(
                to: vault, data: VaultCalls.withdraw(asset: asset, amount: amount))
        }
    }

    private func mined(
        _ what: String, _ send: () async throws -> SignedTransaction
    ) async throws(EVMError) -> TransactionReceipt {
        let transaction: SignedTransaction
        do { transaction = try await send() } catch let error as EVMError { throw error } catch {
            throw .malformedResponse("\(what): \(error)")
        }
        let outcome = try await sender.rpc.waitForReceipt(
            transaction.hash, confirmations: 1, timeout: timeout, pollInterval: .milliseconds(100))
        switch outcome {
        case .confirmed(let receipt, _) where receipt.succeeded: return receipt
        case .confirmed(let receipt, _):
            throw .executionReverted(
                reason: "\(what): transaction \(receipt.transactionHash.hex) reverted", data: [])
        case .reorganized, .pending:
            throw .timedOut(endpoint: sender.rpc.endpoint, method: "\(what) (not mined)")
        }
    }
}

/// Nonces from the chain's pending count alone, for commands that wait for each transaction
/// before the next (the sync engine keeps its own in the wallet).
struct ChainCountedNonces: NonceStore {
    func nextNonce(for account: Address, chainID: UInt64) async throws -> UInt64? { nil }
    func advance(to next: UInt64, for account: Address, chainID: UInt64) async throws {}
    func release(_ nonce: UInt64, for account: Address, chainID: UInt64) async throws {}
}
