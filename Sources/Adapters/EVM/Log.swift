import BigInt
import Codecs
import Tender

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
