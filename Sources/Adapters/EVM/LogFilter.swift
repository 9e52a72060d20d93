import BigInt
import Codecs
import Tender

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
