import Codecs
import Foundation
import NodeKit
import Tender

/// Where the coins of one domain (a vault on a chain) are settled: the endpoints to try in
/// order, the confirmations a redeem needs, and how many requests a second an endpoint takes.
public struct ChainEntry: Sendable, Equatable {
    public var domain: Domain
    public var endpoints: [String]
    public var confirmations: UInt64
    /// Requests per second to each endpoint; nil: no limit.
    public var rateLimit: Double?
    /// The symbol and decimals of the chain's own coin as configured (`native-symbol`,
    /// `native-decimals`); nil: `NativeCoins.denomination(chainID:)` decides.
    public var nativeCoin: Denomination?
    /// Whether coins worth less than their redeem's gas wait (`dust`, default `wait`).
    public var dust: DustPolicy

    public static let defaultConfirmations: UInt64 = 2
    /// The most confirmations a redeem may wait for (a day of 1-second blocks): more would
    /// never settle, and block arithmetic stays far from overflow.
    public static let confirmationsRange: ClosedRange<UInt64> = 1...86_400
    /// Requests per second an endpoint may be limited to: slower than one request in ten
    /// seconds never finishes a pass; the bound keeps every wait a `Duration` can hold.
    public static let rateLimitRange: ClosedRange<Double> = 0.1...100_000
    /// The largest chain id a transaction can carry (EIP-2294: 2^63 - 37, so that a legacy
    /// `v` of chainID × 2 + 36 fits 64 bits).
    public static let largestChainID: UInt64 = 9_223_372_036_854_775_771

    /// The coin `native-symbol` and `native-decimals` configure (decimals 18 unless given);
    /// nil when neither is.
    public static func configuredCoin(
        symbol: String?, decimals: Int?
    ) throws(AmountTextError) -> Denomination? {
        guard let symbol else {
            guard decimals == nil else { throw AmountTextError("decimals given without a symbol") }
            return nil
        }
        return try Denomination(symbol: symbol, decimals: decimals ?? 18)
    }

    public init(
        domain: Domain, endpoints: [String], confirmations: UInt64 = defaultConfirmations,
        rateLimit: Double? = nil, nativeCoin: Denomination? = nil, dust: DustPolicy = .wait
    ) throws(NodeError) {
        guard !endpoints.isEmpty else {
            throw NodeError(.usage("chain \(domain.chainID): give at least one RPC endpoint"))
        }
        for endpoint in endpoints {
            guard Self.isEndpoint(endpoint) else {
                throw NodeError(
                    .usage(
                        "chain \(domain.chainID): '\(RedactedURL.text(endpoint))' is not an http:// or https:// URL"
                    ))
            }
        }
        guard (1...Self.largestChainID).contains(domain.chainID) else {
            throw NodeError(
                .usage("chain id \(domain.chainID) is out of range (1…\(Self.largestChainID))"))
        }
        guard Self.confirmationsRange.contains(confirmations) else {
            throw NodeError(
                .usage(
                    "chain \(domain.chainID): confirmations must be at least 1 and at most \(Self.confirmationsRange.upperBound), got \(confirmations)"
                ))
        }
        if let rateLimit {
            guard Self.rateLimitRange.contains(rateLimit) else {
                throw NodeError(
                    .usage(
                        "chain \(domain.chainID): a rate limit must be \(Self.rateLimitRange.lowerBound)…\(Int(Self.rateLimitRange.upperBound)) requests per second, got \(rateLimit)"
                    ))
            }
        }
        self.domain = domain
        self.endpoints = endpoints
        self.confirmations = confirmations
        self.rateLimit = rateLimit
        self.nativeCoin = nativeCoin
        self.dust = dust
    }

    /// Whether `endpoint` is an http:// or https:// URL with a host, without spaces, and a
    /// port (when given) of 1…65535.
    public static func isEndpoint(_ endpoint: String) -> Bool {
        let host = endpoint.split(separator: "://", maxSplits: 1).last ?? ""
        guard
            (endpoint.hasPrefix("http://") || endpoint.hasPrefix("https://"))
                && !host.isEmpty && host.count < endpoint.count
                && !endpoint.contains(where: { $0.isWhitespace || $0.isNewline }),
            let components = URLComponents(string: endpoint), components.host?.isEmpty == false
        else { return false }
        return components.port.map { (1...65_535).contains($0) } ?? true
    }
}

/// The chains a node settles on, by domain: at most one entry per vault on a chain. A wallet
/// takes payments only in its home domain and the domains listed here (Docs/PROTOCOL.md,
/// "Chains").
public struct ChainRegistry: Sendable, Equatable {
    public private(set) var entries: [ChainEntry]

    public init(_ entries: [ChainEntry] = []) throws(NodeError) {
        self.entries = []
        for entry in entries {
            guard self.entry(for: entry.domain) == nil else {
                throw NodeError(
                    .usage(
                        "chain \(entry.domain.chainID), vault \(entry.domain.vault) is listed twice"
                    ))
            }
            self.entries.append(entry)
        }
    }

    public func entry(for domain: Domain) -> ChainEntry? {
        entries.first { $0.domain == domain }
    }

    /// The chain's own coin: as configured (the coin is the chain's, so any vault's entry on
    /// it may name it, `domain`'s own first), else as Tender knows the chain, else base units.
    public func nativeCoin(chainID: UInt64, preferring domain: Domain? = nil) -> Denomination {
        domain.flatMap { entry(for: $0)?.nativeCoin } ?? configuredCoin(chainID: chainID)
            ?? NativeCoins.denomination(chainID: chainID) ?? .baseUnits
    }

    /// The chain's own coin as some vault's entry on it names it, or nil.
    public func configuredCoin(chainID: UInt64) -> Denomination? {
        entries.lazy.filter { $0.domain.chainID == chainID }.compactMap(\.nativeCoin).first
    }

    /// Adds `entry`, or replaces the one for its domain. Returns whether one was replaced.
    @discardableResult
    public mutating func add(_ entry: ChainEntry) -> Bool {
        if let index = entries.firstIndex(where: { $0.domain == entry.domain }) {
            entries[index] = entry
            return true
        }
        entries.append(entry)
        return false
    }

    /// Removes every entry of `chainID` (of its `vault` only, when given). Returns how many.
    @discardableResult
    public mutating func remove(chainID: UInt64, vault: Address? = nil) -> Int {
        let before = entries.count
        entries.removeAll {
            $0.domain.chainID == chainID && (vault == nil || $0.domain.vault == vault)
        }
        return before - entries.count
    }
}
