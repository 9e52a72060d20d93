import Tender

/// The denomination of every asset of one wallet's domain: the chain's own coin as configured
/// (or known for its chain id), tokens as their contracts answered at sync, anything else in
/// base units.
public struct Denominations: Sendable, Equatable {
    public var nativeCoin: Denomination
    public var tokens: [Address: Denomination]

    public init(nativeCoin: Denomination = .baseUnits, tokens: [Address: Denomination] = [:]) {
        self.nativeCoin = nativeCoin
        self.tokens = tokens
    }

    public subscript(asset: Address) -> Denomination {
        asset == .zero ? nativeCoin : tokens[asset] ?? .baseUnits
    }

    /// `2.50 USDC (0xA0b8…eB48)`: any contract may call itself USDC, so a token's amount
    /// carries its address, shortened; the chain's coin none (`1.00 ETH`); an asset not known
    /// yet: `250 base units of 0x…`.
    public func format(_ amount: Amount, of asset: Address) -> String {
        let denomination = self[asset]
        let text = denomination.format(amount)
        if asset == .zero { return denomination.isKnown ? text : text + " (native coin)" }
        guard denomination.isKnown else { return text + " of \(asset)" }
        let hex = asset.checksummed
        return "\(text) (\(hex.prefix(6))…\(hex.suffix(4)))"
    }

    /// An amount typed for `asset` (2.50), positive, in base units; the error names `field`
    /// (as the front end calls it) and what was wrong.
    public func parse(
        _ text: String, of asset: Address, field: String
    ) throws(NodeError) -> Amount {
        // The chain's own coin has no decimals until it is named (a development chain's):
        // a fraction then needs the name, not a sync.
        if asset == .zero, nativeCoin == .baseUnits, text.contains(".") {
            throw NodeError(
                .usage(
                    "\(field): '\(text)': the chain's coin has no name or decimals here, so amounts are in base units"
                ), resolvedBy: .nameNativeCoin)
        }
        return try self[asset].positiveAmount(text, field: field)
    }
}

extension Denomination {
    /// A typed amount, more than zero, in base units, or a usage error naming `option`.
    public func positiveAmount(
        _ text: String, field: String
    ) throws(NodeError)
        -> Amount
    {
        let amount: Amount
        do { amount = try parse(text) } catch {
            throw NodeError(.usage("\(field): \(error.description)"))
        }
        guard amount > 0 else { throw NodeError(.usage("\(field) must be more than zero")) }
        return amount
    }
}

/// The chain coins Tender knows by chain id; all of them have 18 decimals. A development
/// chain (31337 and the like) is not here: its coin is configured (`tender chain add
/// --native-symbol`), else its amounts are shown in base units.
public enum NativeCoins {
    static let symbols: [UInt64: String] = [
        1: "ETH", 10: "ETH", 8453: "ETH", 42161: "ETH", 59144: "ETH", 534352: "ETH",
        11_155_111: "ETH", 17000: "ETH", 560_048: "ETH",
        137: "POL", 100: "XDAI", 56: "BNB", 43114: "AVAX",
    ]

    public static func denomination(chainID: UInt64) -> Denomination? {
        symbols[chainID].flatMap { try? Denomination(symbol: $0, decimals: 18) }
    }
}

/// A front end's wording of errors: amounts as `denominations` read them (`need 9.00 DEV`; a
/// token's with its address, shortened: `2.50 USDC (0xA0b8…eB48)`: any contract may call
/// itself USDC; an asset of unknown decimals: `900 base units`), each resolving step in the
/// front end's terms.
public struct DenominatedWording: ErrorWording {
    public let denominations: Denominations
    public let steps: @Sendable (ResolvingStep) -> String

    public init(
        _ denominations: Denominations,
        steps: @escaping @Sendable (ResolvingStep) -> String = { PlainWording().step($0) }
    ) {
        self.denominations = denominations
        self.steps = steps
    }

    public func amount(_ amount: Amount, of asset: Address) -> String {
        let denomination = denominations[asset]
        return asset != .zero && denomination.isKnown
            ? denominations.format(amount, of: asset) : denomination.format(amount)
    }

    public func step(_ step: ResolvingStep) -> String { steps(step) }
}
