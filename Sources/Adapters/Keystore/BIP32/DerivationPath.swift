/// A BIP32 path from the master key, such as `m/44'/60'/0'/0/0`.
///
/// Parsing accepts `'`, `h` or `H` for hardened components and refuses anything else: a typo in a
/// path silently selects a different key, so nothing is guessed.
public struct DerivationPath: Sendable, Hashable, CustomStringConvertible {
    /// One step: an index below 2^31, hardened or not.
    public struct Component: Sendable, Hashable, CustomStringConvertible {
        /// The index without the hardened bit, 0 ..< 2^31.
        public let index: UInt32
        public let isHardened: Bool

        /// Hardened step `index'`. `index` must be below 2^31.
        public static func hardened(_ index: UInt32) -> Component {
            precondition(index < DerivationPath.hardenedOffset, "BIP32 index must be below 2^31")
            return Component(index: index, isHardened: true)
        }

        /// Normal (public-derivable) step `index`. `index` must be below 2^31.
        public static func normal(_ index: UInt32) -> Component {
            precondition(index < DerivationPath.hardenedOffset, "BIP32 index must be below 2^31")
            return Component(index: index, isHardened: false)
        }

        /// The 32-bit child number BIP32 hashes: hardened ones have the top bit set.
        public var childNumber: UInt32 {
            isHardened ? index | DerivationPath.hardenedOffset : index
        }

        public var description: String { isHardened ? "\(index)'" : "\(index)" }
    }

    static let hardenedOffset: UInt32 = 1 << 31

    /// The steps after `m`; empty for the master key itself.
    public let components: [Component]

    public init(components: [Component]) {
        self.components = components
    }

    /// BIP44's first Ethereum account, external chain, first address: `m/44'/60'/0'/0/0`, the
    /// path MetaMask, Ledger and the common dev tools use.
    public static let ethereum = DerivationPath(components: [
        .hardened(44), .hardened(60), .hardened(0), .normal(0), .normal(0),
    ])

    /// Parses `m` followed by zero or more `/index` with an optional `'`, `h` or `H`.
    public init(_ text: String) throws(KeystoreError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.first == "m" else {
            throw Self.invalid(text, "must start with \"m\"")
        }
        // A key's depth is one byte in BIP32's serialisation.
        guard parts.count - 1 <= 255 else {
            throw Self.invalid(text, "is deeper than 255 levels")
        }
        var components: [Component] = []
        for (offset, part) in parts.dropFirst().enumerated() {
            components.append(try Self.component(part, position: offset + 1, in: text))
        }
        self.components = components
    }

    public var description: String {
        (["m"] + components.map(\.description)).joined(separator: "/")
    }

    private static func component(
        _ part: Substring, position: Int, in text: String
    ) throws(KeystoreError) -> Component {
        var digits = part
        var hardened = false
        if let last = digits.last, last == "'" || last == "h" || last == "H" {
            hardened = true
            digits = digits.dropLast()
        }
        // Only ASCII digits: `UInt32("+1")` would also parse.
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw invalid(text, "component \(position) (\"\(part)\") is not a number")
        }
        guard let index = UInt32(digits), index < hardenedOffset else {
            throw invalid(text, "component \(position) (\"\(part)\") is 2^31 or more")
        }
        return Component(index: index, isHardened: hardened)
    }

    private static func invalid(_ text: String, _ reason: String) -> KeystoreError {
        KeystoreError(.invalidDerivationPath, "derivation path \"\(text)\" \(reason)")
    }
}
