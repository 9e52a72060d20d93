import BigInt
import Codecs
import Tender

/// Which block a query reads: a number or one of the node's named blocks.
public enum BlockTag: Sendable, Hashable {
    case number(UInt64)
    case latest, pending, earliest, safe, finalized

    var json: JSONValue {
        switch self {
        case .number(let number): .string(number.quantity)
        case .latest: "latest"
        case .pending: "pending"
        case .earliest: "earliest"
        case .safe: "safe"
        case .finalized: "finalized"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

/// A message for `eth_call` and `eth_estimateGas`.
public struct CallRequest: Sendable, Hashable {
    public var from: Address?
    public var to: Address?
    public var value: Wei?
    public var data: [UInt8]
    public var gas: UInt64?

    public init(
        from: Address? = nil, to: Address?, value: Wei? = nil, data: [UInt8] = [],
        gas: UInt64? = nil
    ) {
        self.from = from
        self.to = to
        self.value = value
        self.data = data
        self.gas = gas
    }

    var json: JSONValue {
        var fields: [String: JSONValue] = ["data": .string(Hex.encode(data))]
        if let from { fields["from"] = .string(Hex.encode(from.bytes)) }
        if let to { fields["to"] = .string(Hex.encode(to.bytes)) }
        if let value { fields["value"] = .string(value.quantity) }
        if let gas { fields["gas"] = .string(gas.quantity) }
        return .object(fields)
    }
}

/// The parts of a block header Tender reads.
public struct BlockHeader: Sendable, Hashable {
    public let number: UInt64
    public let hash: Bytes32
    public let parentHash: Bytes32
    public let timestamp: UInt64
    public let gasLimit: UInt64
    public let gasUsed: UInt64
    /// nil before London.
    public let baseFeePerGas: Wei?

    init(json: JSONValue, context: String) throws(EVMError) {
        number = try json.field("number", of: context).uint64("\(context).number")
        hash = try json.field("hash", of: context).bytes32("\(context).hash")
        parentHash = try json.field("parentHash", of: context).bytes32("\(context).parentHash")
        timestamp = try json.field("timestamp", of: context).uint64("\(context).timestamp")
        gasLimit = try json.field("gasLimit", of: context).uint64("\(context).gasLimit")
        gasUsed = try json.field("gasUsed", of: context).uint64("\(context).gasUsed")
        baseFeePerGas = try (json["baseFeePerGas"] ?? .null).optional { value throws(EVMError) in
            try value.quantity("\(context).baseFeePerGas")
        }
    }
}

/// An event a contract emitted.
public struct Log: Sendable, Hashable {
    public let address: Address
    public let topics: [Bytes32]
    public let data: [UInt8]
    public let blockNumber: UInt64
    public let blockHash: Bytes32
    public let transactionHash: Bytes32
    public let logIndex: UInt64
    public let removed: Bool

    init(json: JSONValue, context: String) throws(EVMError) {
        address = try json.field("address", of: context).address("\(context).address")
        var topics: [Bytes32] = []
        for (index, topic) in try json.field("topics", of: context).array("\(context).topics")
            .enumerated()
        {
            topics.append(try topic.bytes32("\(context).topics[\(index)]"))
        }
        guard topics.count <= 4 else {
            throw .malformedResponse("\(context).topics: \(topics.count) topics, at most 4")
        }
        self.topics = topics
        data = try json.field("data", of: context).data("\(context).data")
        blockNumber = try json.field("blockNumber", of: context).uint64("\(context).blockNumber")
        blockHash = try json.field("blockHash", of: context).bytes32("\(context).blockHash")
        transactionHash = try json.field("transactionHash", of: context)
            .bytes32("\(context).transactionHash")
        logIndex = try json.field("logIndex", of: context).uint64("\(context).logIndex")
        switch json["removed"] {
        case nil, .bool(false)?: removed = false
        case .bool(true)?: removed = true
        case let other?: throw .malformedResponse("\(context).removed: \(other.excerpt)")
        }
    }
}

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

/// `eth_feeHistory`: base fees of `oldestBlock…` plus the next block's (one more entry than
/// blocks), how full each block was, and each block's tips at the asked percentiles.
public struct FeeHistory: Sendable, Hashable {
    public let oldestBlock: UInt64
    public let baseFeePerGas: [Wei]
    public let gasUsedRatios: [Double]
    public let rewards: [[Wei]]

    init(json: JSONValue, context: String, percentiles: Int) throws(EVMError) {
        oldestBlock = try json.field("oldestBlock", of: context).uint64("\(context).oldestBlock")
        var baseFees: [Wei] = []
        for (index, fee) in try json.field("baseFeePerGas", of: context)
            .array("\(context).baseFeePerGas").enumerated()
        {
            baseFees.append(try fee.quantity("\(context).baseFeePerGas[\(index)]"))
        }
        var ratios: [Double] = []
        for ratio in try json.field("gasUsedRatio", of: context).array("\(context).gasUsedRatio") {
            guard case .number(let value) = ratio, value >= 0, value <= 1 else {
                throw .malformedResponse("\(context).gasUsedRatio: \(ratio.excerpt) is not in 0…1")
            }
            ratios.append(value)
        }
        guard baseFees.count == ratios.count + 1 else {
            throw .malformedResponse(
                "\(context): \(baseFees.count) base fees for \(ratios.count) blocks (one more expected)"
            )
        }
        var rewards: [[Wei]] = []
        if percentiles > 0 {
            let blocks = try json.field("reward", of: context).array("\(context).reward")
            guard blocks.count == ratios.count else {
                throw .malformedResponse(
                    "\(context).reward: \(blocks.count) entries for \(ratios.count) blocks")
            }
            for (index, block) in blocks.enumerated() {
                var tips: [Wei] = []
                for tip in try block.array("\(context).reward[\(index)]") {
                    tips.append(try tip.quantity("\(context).reward[\(index)]"))
                }
                guard tips.count == percentiles else {
                    throw .malformedResponse(
                        "\(context).reward[\(index)]: \(tips.count) values for \(percentiles) percentiles"
                    )
                }
                rewards.append(tips)
            }
        }
        self.baseFeePerGas = baseFees
        self.gasUsedRatios = ratios
        self.rewards = rewards
    }
}

/// An `eth_getLogs` filter: a block range, contracts, and topics position by position
/// (nil: any; several: any of them).
public struct LogFilter: Sendable, Hashable {
    public var fromBlock: BlockTag
    public var toBlock: BlockTag
    public var addresses: [Address]
    public var topics: [[Bytes32]?]

    public init(
        fromBlock: BlockTag, toBlock: BlockTag = .latest, addresses: [Address] = [],
        topics: [[Bytes32]?] = []
    ) {
        self.fromBlock = fromBlock
        self.toBlock = toBlock
        self.addresses = addresses
        self.topics = topics
    }

    var json: JSONValue {
        var fields: [String: JSONValue] = ["fromBlock": fromBlock.json, "toBlock": toBlock.json]
        if !addresses.isEmpty {
            fields["address"] = .array(addresses.map { .string(Hex.encode($0.bytes)) })
        }
        if !topics.isEmpty {
            fields["topics"] = .array(
                topics.map { choice in
                    choice.map { .array($0.map { .string($0.hex) }) } ?? .null
                })
        }
        return .object(fields)
    }
}
