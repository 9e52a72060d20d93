import NodeKit
import Tender

/// The chain a vault lives on, as the sync engine needs it. The EVM adapter implements it over
/// JSON-RPC with the node's key (fees, signing, sending); tests may fake it. Every method may
/// fail with a `NodeError` naming the endpoint and what went wrong.
public protocol SettlementChain: Sendable {
    var chainID: UInt64 { get }
    /// The address that signs and pays for redeem transactions (the node's).
    var sender: Address { get }
    /// Transactions of `sender` the chain counts, pending ones included.
    func pendingNonce() async throws(NodeError) -> UInt64
    /// A signed `redeem()` call to `vault` with `calldata` at `nonce`: its hash and raw bytes.
    /// `estimatedGas` is the planner's figure; the gas limit (with a margin) and fees are the
    /// adapter's.
    func signRedeem(
        vault: Address, calldata: [UInt8], nonce: UInt64, estimatedGas: UInt64
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8])
    /// The transaction signed as `raw` again (same nonce, call and gas) with fees a node takes
    /// in its place: each at least 10 % above the old ones and at least what the chain asks now.
    func signReplacement(of raw: [UInt8]) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8])
    /// Transactions of `sender` in blocks (the next nonce the chain would mine).
    func minedNonce() async throws(NodeError) -> UInt64
    /// Sends raw bytes; sending a transaction the chain already has is not an error.
    func send(raw: [UInt8]) async throws(NodeError)
    /// The most sending `raw` (a transaction this adapter signed) may cost `sender` (its gas
    /// limit at the highest fee it offers, and any value), and what `sender` holds now, in
    /// the chain's coin.
    func funds(toSend raw: [UInt8]) async throws(NodeError) -> (needed: Amount, held: Amount)
    /// The receipt, or nil while the transaction is not in a block.
    func receipt(of hash: Bytes32) async throws(NodeError) -> ChainReceipt?
    /// The canonical block's hash at `number` (nil above the head).
    func blockHash(at number: UInt64) async throws(NodeError) -> Bytes32?
    func headBlock() async throws(NodeError) -> UInt64
    /// Every issuer's collateral and lock in `vault` at the head, read at `now`.
    func collateral(vault: Address, now: UInt64) async throws(NodeError) -> CollateralSnapshot
    /// The transfer that spent each coin in `vault` (`consumed[coin]`; zero: nothing yet).
    func consumed(vault: Address, coins: [CoinID]) async throws(NodeError) -> [CoinID: Bytes32]
    /// The coins of `evidence` whose double spend by the evidence's spender (the coin's owner,
    /// by its proof) the vault has on record: a record under another key says nothing.
    func provenFrauds(
        vault: Address, of evidence: [DoubleSpendEvidence]
    ) async throws(NodeError) -> Set<CoinID>
    /// What `vault` owes this node's key in each of `assets`: token payouts the token refused
    /// (the vault's `owed`); assets owed nothing are left out.
    func owed(vault: Address, assets: [Address]) async throws(NodeError) -> [Address: Amount]
    /// A signed `claim(asset)` to `vault` at `nonce`; refused (thrown) when the chain would
    /// revert it (the token still refuses), before any gas is spent.
    func signClaim(
        vault: Address, asset: Address, nonce: UInt64
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8])
    /// What a unit of gas costs a transaction sent now (the next block's base fee and the
    /// tip this node would give), in the chain's coin: coins are weighed against it.
    func gasPrice() async throws(NodeError) -> Amount
    /// A token contract's `symbol()` and `decimals()`; nil when it has none that make sense.
    func denomination(ofToken asset: Address) async throws(NodeError) -> Denomination?
    /// A signed `submitFraudProof` of `evidence` to `vault` at `nonce`: its hash and bytes.
    func signFraudProof(
        vault: Address, evidence: DoubleSpendEvidence, nonce: UInt64
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8])
}

extension SettlementChain {
    /// Fakes of a chain without tokens are owed nothing.
    public func owed(
        vault: Address, assets: [Address]
    ) async throws(NodeError) -> [Address: Amount] { [:] }

    public func signClaim(
        vault: Address, asset: Address, nonce: UInt64
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8]) {
        throw NodeError(.io("this chain has no claims"))
    }

    /// Fakes: gas costs nothing, so no coin waits for cheaper gas.
    public func gasPrice() async throws(NodeError) -> Amount { 0 }

    /// Fakes: every transaction is paid for.
    public func funds(toSend raw: [UInt8]) async throws(NodeError) -> (needed: Amount, held: Amount)
    {
        (0, .max)
    }

    /// Fakes of a chain without tokens need not answer.
    public func denomination(ofToken asset: Address) async throws(NodeError) -> Denomination? {
        nil
    }
}

/// A mined transaction's receipt, reduced to what settlement reads.
public struct ChainReceipt: Sendable, Equatable {
    public let succeeded: Bool
    public let blockNumber: UInt64
    public let blockHash: Bytes32
    public let logs: [VaultLog]

    public init(succeeded: Bool, blockNumber: UInt64, blockHash: Bytes32, logs: [VaultLog]) {
        self.succeeded = succeeded
        self.blockNumber = blockNumber
        self.blockHash = blockHash
        self.logs = logs
    }
}
