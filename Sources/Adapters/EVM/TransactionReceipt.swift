import BigInt
import Codecs
import Tender

/// A mined transaction's outcome.
public struct TransactionReceipt: Sendable, Hashable {
    public let transactionHash: Bytes32
    /// true: executed; false: reverted (its gas is spent all the same).
    public let succeeded: Bool
    public let blockNumber: UInt64
    public let blockHash: Bytes32
    public let gasUsed: UInt64
    public let effectiveGasPrice: Wei
    /// The created contract, for a deployment.
    public let contractAddress: Address?
    public let logs: [Log]

    init(json: JSONValue, context: String) throws(EVMError) {
        transactionHash = try json.field("transactionHash", of: context)
            .bytes32("\(context).transactionHash")
        let status = try json.field("status", of: context).quantity("\(context).status")
        guard status <= 1 else { throw .malformedResponse("\(context).status: \(status)") }
        succeeded = status == 1
        blockNumber = try json.field("blockNumber", of: context).uint64("\(context).blockNumber")
        blockHash = try json.field("blockHash", of: context).bytes32("\(context).blockHash")
        gasUsed = try json.field("gasUsed", of: context).uint64("\(context).gasUsed")
        effectiveGasPrice = try json.field("effectiveGasPrice", of: context)
            .quantity("\(context).effectiveGasPrice")
        contractAddress = try (json["contractAddress"] ?? .null).optional {
            value throws(EVMError) in
            try value.address("\(context).contractAddress")
        }
        var logs: [Log] = []
        for (index, log) in try json.field("logs", of: context).array("\(context).logs")
            .enumerated()
        {
            logs.append(try Log(json: log, context: "\(context).logs[\(index)]"))
        }
        self.logs = logs
    }
}
