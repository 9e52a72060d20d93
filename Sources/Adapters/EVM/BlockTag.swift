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
