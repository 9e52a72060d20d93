import BigInt
import Codecs
import Tender

/// The typed methods: each checks its answer field by field.
extension EthereumRPC {
    public func chainID() async throws(EVMError) -> UInt64 {
        try await request("eth_chainId").uint64("eth_chainId")
    }

    public func blockNumber() async throws(EVMError) -> UInt64 {
        try await request("eth_blockNumber").uint64("eth_blockNumber")
    }

    public func balance(
        of account: Address, at block: BlockTag = .latest
    ) async throws(EVMError) -> Wei {
        try await request("eth_getBalance", [.string(Hex.encode(account.bytes)), block.json])
            .quantity("eth_getBalance")
    }

    /// The account's nonce: mined transactions at `.latest`, the node's pool too at `.pending`.
    public func transactionCount(
        of account: Address, at block: BlockTag = .latest
    )
        async throws(EVMError) -> UInt64
    {
        try await request(
            "eth_getTransactionCount", [.string(Hex.encode(account.bytes)), block.json]
        )
        .uint64("eth_getTransactionCount")
    }

    public func code(
        at account: Address, block: BlockTag = .latest
    ) async throws(EVMError) -> [UInt8] {
        try await request("eth_getCode", [.string(Hex.encode(account.bytes)), block.json])
            .data("eth_getCode")
    }

    /// Broadcasts a signed transaction; the node's hash must be the one we computed.
    @discardableResult
    public func sendRawTransaction(
        _ transaction: SignedTransaction
    ) async throws(EVMError) -> Bytes32 {
        let hash = try await request(
            "eth_sendRawTransaction", [.string(Hex.encode(transaction.raw))]
        )
        .bytes32("eth_sendRawTransaction")
        guard hash == transaction.hash else {
            throw .malformedResponse(
                "eth_sendRawTransaction: node says hash \(hash), the transaction's is \(transaction.hash)"
            )
        }
        return hash
    }

    /// Runs a call without a transaction; a revert is `executionReverted`.
    public func call(
        _ message: CallRequest, at block: BlockTag = .latest
    ) async throws(EVMError) -> [UInt8] {
        try await request("eth_call", [message.json, block.json]).data("eth_call")
    }

    public func estimateGas(_ message: CallRequest) async throws(EVMError) -> UInt64 {
        try await request("eth_estimateGas", [message.json]).uint64("eth_estimateGas")
    }

    /// nil until the transaction is mined (or when the node does not know it).
    public func transactionReceipt(_ hash: Bytes32) async throws(EVMError) -> TransactionReceipt? {
        let context = "eth_getTransactionReceipt"
        let receipt = try await request(context, [.string(hash.hex)]).optional {
            json throws(EVMError) in
            try TransactionReceipt(json: json, context: context)
        }
        guard receipt == nil || receipt?.transactionHash == hash else {
            throw .malformedResponse("\(context): the receipt of another transaction")
        }
        return receipt
    }

    /// nil for a block not (yet) in the chain.
    public func block(_ block: BlockTag) async throws(EVMError) -> BlockHeader? {
        let context = "eth_getBlockByNumber"
        let header = try await request(context, [block.json, .bool(false)]).optional {
            json throws(EVMError) in try BlockHeader(json: json, context: context)
        }
        if case .number(let number) = block, let header, header.number != number {
            throw .malformedResponse("\(context): asked block \(number), got \(header.number)")
        }
        return header
    }

    public func logs(_ filter: LogFilter) async throws(EVMError) -> [Log] {
        var logs: [Log] = []
        for (index, log) in try await request("eth_getLogs", [filter.json]).array("eth_getLogs")
            .enumerated()
        {
            logs.append(try Log(json: log, context: "eth_getLogs[\(index)]"))
        }
        return logs
    }

    /// Base fees, fullness and tips of the `blocks` blocks up to `newest`.
    public func feeHistory(
        blocks: UInt64, newest: BlockTag = .latest, percentiles: [Double] = []
    )
        async throws(EVMError) -> FeeHistory
    {
        let answer = try await request(
            "eth_feeHistory",
            [.string(blocks.quantity), newest.json, .array(percentiles.map { .number($0) })])
        return try FeeHistory(
            json: answer, context: "eth_feeHistory", percentiles: percentiles.count)
    }

    /// Fees for a transaction now, by `policy` (Docs/EVM.md, "Fees").
    /// What a unit of gas costs a transaction priced by `policy` in the next block.
    public func expectedGasPrice(_ policy: FeePolicy = FeePolicy()) async throws(EVMError) -> Wei {
        policy.expectedPrice(
            from: try await feeHistory(blocks: policy.blocks, percentiles: [policy.percentile]))
    }

    public func proposeFees(_ policy: FeePolicy = FeePolicy()) async throws(EVMError) -> Fees {
        policy.propose(
            from: try await feeHistory(blocks: policy.blocks, percentiles: [policy.percentile]))
    }
}
