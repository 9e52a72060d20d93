import EVM
import NodeKit
import Secp256k1
import Settlement
import Tender

/// The vault's chain as the sync engine needs it, over JSON-RPC (the EVM module): redeem
/// transactions signed with the node's key at the nonce the engine recorded, gas from the
/// planner's model with a margin, fees from the chain's history. The endpoint's chain id is
/// checked before a redeem is signed.
public struct EVMSettlementChain: SettlementChain {
    public let chainID: UInt64
    public let sender: Address
    let rpc: EthereumRPC
    let key: PrivateKey
    let feePolicy: FeePolicy

    public init(
        rpc: EthereumRPC, chainID: UInt64, key: PrivateKey, feePolicy: FeePolicy = FeePolicy()
    ) {
        self.rpc = rpc
        self.chainID = chainID
        self.key = key
        self.sender = Address(publicKey: key.publicKey)
        self.feePolicy = feePolicy
    }

    public func pendingNonce() async throws(NodeError) -> UInt64 {
        try await ask { () throws(EVMError) in
            try await rpc.transactionCount(of: sender, at: .pending)
        }
    }

    public func signRedeem(
        vault: Address, calldata: [UInt8], nonce: UInt64, estimatedGas: UInt64
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8]) {
        let served = try await ask { () throws(EVMError) in try await rpc.chainID() }
        guard served == chainID else {
            throw NodeError(
                .rejected(
                    ProtocolError(
                        .malformed(
                            "the endpoint serves chain \(served), not \(chainID): nothing was signed"
                        ))))
        }
        // The planner's model (rounded up from the vault's measured costs) plus a quarter, not
        // eth_estimateGas: a node simulates a full batch several times to estimate it (py-evm
        // takes longer than a request may), and the vault never reverts a batch for a bad coin.
        return try await sign(
            "the redeem transaction", to: vault, calldata: calldata, nonce: nonce,
            gas: estimatedGas + estimatedGas / 4)
    }

    public func signReplacement(
        of raw: [UInt8]
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8]) {
        let stuck = try Self.decode(raw)
        let proposed = try await ask { () throws(EVMError) in try await rpc.proposeFees(feePolicy) }
        do {
            let signed = try stuck.transaction.replacement(proposed: proposed).signed(with: key)
            return (signed.hash, signed.raw)
        } catch { throw NodeError(.key("signing a replacement: \(error)")) }
    }

    public func gasPrice() async throws(NodeError) -> Amount {
        let price = try await ask { () throws(EVMError) in
            try await rpc.expectedGasPrice(feePolicy)
        }
        return Amount(exactly: price) ?? .max
    }

    public func minedNonce() async throws(NodeError) -> UInt64 {
        try await ask { () throws(EVMError) in
            try await rpc.transactionCount(of: sender, at: .latest)
        }
    }

    public func send(raw: [UInt8]) async throws(NodeError) {
        let transaction = try Self.decode(raw)
        do { try await rpc.sendRawTransaction(transaction) } catch {
            // Sent before (this is a resend after a restart or a reorg): not an error.
            if case .rpc(_, let message, _) = error, Self.alreadySent(message) { return }
            if error.cannotAffordGas {
                // Its balance fell since the engine checked it: said in words, not the
                // node's (py-evm's answer spells the sender as a Python bytes literal).
                let needed =
                    Wei(transaction.transaction.gas) * transaction.transaction.maxFeePerGas
                    + transaction.transaction.value
                let held = (try? await rpc.balance(of: sender, at: .pending)) ?? 0
                throw NodeError(
                    .noGas(
                        account: sender, chainID: chainID, needed: Amount(exactly: needed) ?? .max,
                        held: Amount(exactly: held) ?? .max),
                    note: "nothing was spent; the next sync sends it again once it can be paid")
            }
            throw NodeError(.io("\(error)"))
        }
    }

    public func funds(
        toSend raw: [UInt8]
    ) async throws(NodeError) -> (needed: Amount, held: Amount) {
        let transaction = try Self.decode(raw).transaction
        let needed = Wei(transaction.gas) * transaction.maxFeePerGas + transaction.value
        // At `pending`: what this key's transactions still in the pool (another vault's batch,
        // a fraud proof, a claim) will take is already gone from it.
        let held = try await ask { () throws(EVMError) in
            try await rpc.balance(of: sender, at: .pending)
        }
        return (Amount(exactly: needed) ?? .max, Amount(exactly: held) ?? .max)
    }

    public func receipt(of hash: Bytes32) async throws(NodeError) -> ChainReceipt? {
        guard
            let receipt = try await ask({ () throws(EVMError) in
                try await rpc.transactionReceipt(hash)
            })
        else { return nil }
        return ChainReceipt(
            succeeded: receipt.succeeded, blockNumber: receipt.blockNumber,
            blockHash: receipt.blockHash,
            logs: receipt.logs.map {
                VaultLog(address: $0.address, topics: $0.topics, data: $0.data)
            }
        )
    }

    public func blockHash(at number: UInt64) async throws(NodeError) -> Bytes32? {
        try await ask { () throws(EVMError) in try await rpc.block(.number(number))?.hash }
    }

    public func headBlock() async throws(NodeError) -> UInt64 {
        try await ask { () throws(EVMError) in try await rpc.blockNumber() }
    }

    public func collateral(
        vault: Address, now: UInt64
    ) async throws(NodeError) -> CollateralSnapshot {
        let read = try await ask { () throws(EVMError) in try await rpc.vaultCollateral(vault) }
        var collateral: [IssuerAsset: Amount] = [:]
        for entry in read.entries {
            collateral[IssuerAsset(issuer: entry.issuer, asset: entry.asset)] =
                Amount(exactly: entry.amount) ?? .max
        }
        return CollateralSnapshot(
            block: read.block, takenAt: now, collateral: collateral,
            lockedUntil: read.lockedUntil.mapValues { UInt64(exactly: $0) ?? .max })
    }

    /// A transaction the wallet recorded, as signed.
    static func decode(_ raw: [UInt8]) throws(NodeError) -> SignedTransaction {
        do { return try SignedTransaction(raw: raw) } catch {
            throw NodeError(.io("a recorded transaction does not decode: \(error)"))
        }
    }

    /// What nodes answer a transaction they already have, or have mined (geth's words).
    static func alreadySent(_ message: String) -> Bool {
        let lowered = message.lowercased()
        return ["already known", "known transaction", "nonce too low"].contains {
            lowered.contains($0)
        }
    }

    public func denomination(ofToken asset: Address) async throws(NodeError) -> Denomination? {
        try await ask { () throws(EVMError) in try await rpc.tokenDenomination(asset) }
    }

    public func consumed(
        vault: Address, coins: [CoinID]
    ) async throws(NodeError) -> [CoinID: Bytes32] {
        try await ask { () throws(EVMError) in try await rpc.vaultConsumed(vault, coins: coins) }
    }

    public func provenFrauds(
        vault: Address, of evidence: [DoubleSpendEvidence]
    ) async throws(NodeError) -> Set<CoinID> {
        let recorded = try await ask { () throws(EVMError) in
            try await rpc.vaultDoubleSpends(vault, evidence.map { ($0.coin, $0.spender) })
        }
        return Set(zip(evidence, recorded).filter(\.1).map(\.0.coin))
    }

    public func owed(
        vault: Address, assets: [Address]
    ) async throws(NodeError) -> [Address: Amount] {
        let owed = try await ask { () throws(EVMError) in
            try await rpc.vaultOwed(vault, to: sender, in: assets)
        }
        return owed.compactMapValues { Amount(exactly: $0) }
    }

    public func signClaim(
        vault: Address, asset: Address, nonce: UInt64
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8]) {
        let calldata = VaultCalls.claim(asset: asset)
        // The estimate runs the claim: a token that still refuses reverts it here, for free.
        let estimate = try await ask { () throws(EVMError) in
            try await rpc.estimateGas(CallRequest(from: sender, to: vault, data: calldata))
        }
        return try await sign(
            "the claim", to: vault, calldata: calldata, nonce: nonce,
            gas: estimate + estimate / 5)
    }

    public func signFraudProof(
        vault: Address, evidence: DoubleSpendEvidence, nonce: UInt64
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8]) {
        let calldata = VaultCalls.submitFraudProof(evidence)
        // Small and fixed in shape: the node's estimate is quick and catches a proof the
        // vault would refuse (already on record) before any gas is spent.
        let estimate = try await ask { () throws(EVMError) in
            try await rpc.estimateGas(CallRequest(from: sender, to: vault, data: calldata))
        }
        return try await sign(
            "the fraud proof", to: vault, calldata: calldata, nonce: nonce,
            gas: estimate + estimate / 5)
    }

    /// A call to `vault` at `nonce` with `gas`, fees from the chain's history, signed.
    private func sign(
        _ what: String, to vault: Address, calldata: [UInt8], nonce: UInt64, gas: UInt64
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8]) {
        let fees = try await ask { () throws(EVMError) in try await rpc.proposeFees(feePolicy) }
        let transaction = Transaction(
            chainID: chainID, nonce: nonce, fees: fees, gas: gas, to: vault, data: calldata)
        do {
            let signed = try transaction.signed(with: key)
            return (signed.hash, signed.raw)
        } catch { throw NodeError(.key("signing \(what): \(error)")) }
    }

    private func ask<T>(_ body: () async throws(EVMError) -> T) async throws(NodeError) -> T {
        do { return try await body() } catch { throw NodeError(.io("\(error)")) }
    }
}
