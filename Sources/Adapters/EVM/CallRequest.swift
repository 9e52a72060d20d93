import BigInt
import Codecs
import Tender

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
