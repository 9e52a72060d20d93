import BigInt
import Codecs
import Tender

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
