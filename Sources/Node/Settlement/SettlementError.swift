/// Why settlement could not do something, by kind.
public struct SettlementError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The coins' proofs cannot make a batch the vault would read (a coin or an input
        /// nothing in the batch creates, a transfer over the vault's caps).
        case unprovable(String)
        /// A receipt's logs that do not read as the vault's events.
        case malformedLog(String)
    }

    public let kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .unprovable(let why): "cannot build a redeem batch: \(why)"
        case .malformedLog(let why): "a redeem receipt's log is malformed: \(why)"
        }
    }
}
