import Codecs

/// The EIP-712 domain every Tender signature is bound to: name "Tender", version "1",
/// the chain id and the vault contract (`verifyingContract`).
public struct Domain: Hashable, Sendable, CustomStringConvertible {
    public static let name = "Tender"
    public static let version = "1"

    public let chainID: UInt64
    public let vault: Address
    /// `hashStruct(EIP712Domain)`, computed once: every digest uses it.
    public let separator: [UInt8]
    /// The same, inline: what each digest absorbs.
    let separatorWord: Bytes32

    public init(chainID: UInt64, vault: Address) {
        self.chainID = chainID
        self.vault = vault
        var hasher = Keccak256()
        hasher.update(TypeHashes.domain)
        hasher.update(Keccak256.hash(Array(Domain.name.utf8)))
        hasher.update(Keccak256.hash(Array(Domain.version.utf8)))
        hasher.updateWord(chainID)
        hasher.updateWord(vault)
        separatorWord = hasher.finalizeBytes32()
        separator = separatorWord.bytes
    }

    /// `keccak256(0x19 0x01 ‖ separator ‖ structHash)`.
    func digest(structHash: Bytes32) -> Bytes32 {
        var hasher = Keccak256()
        var prefix: (UInt8, UInt8) = (0x19, 0x01)
        withUnsafeBytes(of: &prefix) { hasher.update($0) }
        hasher.update(separatorWord)
        hasher.update(structHash)
        return hasher.finalizeBytes32()
    }

    public var description: String { "chain \(chainID), vault \(vault)" }

    public static func == (lhs: Domain, rhs: Domain) -> Bool {
        lhs.chainID == rhs.chainID && lhs.vault == rhs.vault
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(chainID)
        hasher.combine(vault)
    }
}
