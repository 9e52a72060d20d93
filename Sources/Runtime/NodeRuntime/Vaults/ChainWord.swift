import EVM
import Tender

/// A 256-bit word read from the chain (a collateral, a lock's time): what it reads as in
/// base units or seconds when it fits, and its decimal digits always.
public struct ChainWord: Sendable, Hashable, CustomStringConvertible {
    let word: Wei

    init(_ word: Wei) { self.word = word }

    public static let zero = ChainWord(0)

    /// The word as an amount, nil past what an amount holds.
    public var amount: Amount? { Amount(exactly: word) }

    /// The decimal digits.
    public var description: String { String(word) }

    /// As people read an amount of `units`; past what an amount holds, the word itself.
    public func formatted(_ units: Denomination) -> String {
        amount.map(units.format) ?? "\(word) base units"
    }

    /// A lock's time: "locked until …", or "not locked" for 0 (never locked) or a time past
    /// what Unix seconds hold here.
    public var lockText: String {
        guard word > 0, let seconds = UInt64(exactly: word) else { return "not locked" }
        return "locked until \(UTCTime.format(seconds))"
    }

    /// Whether the word is at least `value` (an amount, or a lock's time in seconds).
    public func isAtLeast(_ value: some BinaryInteger) -> Bool { word >= Wei(value) }
}
