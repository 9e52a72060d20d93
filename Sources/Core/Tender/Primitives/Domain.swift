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

    public init(chainID: UInt64, vault: Address) {
        self.chainID = chainID
        self.vault = vault
        var hasher = Keccak256()
        hasher.update(TypeHashes.domain)
        hasher.update(Keccak256.hash(Array(Domain.name.utf8)))
        hasher.update(Keccak256.hash(Array(Domain.version.utf8)))
        hasher.updateWord(chainID)
        hasher.updateWord(vault)
        separator = hasher.finalize()
    }

    /// `keccak256(0x19 0x01 ‖ separator ‖ structHash)`.
    func digest(structHash: [UInt8]) -> Bytes32 {
        var hasher = Keccak256()
        updateDigestMessage(structHash: structHash[...], &hasher)
        return Bytes32(trusted: hasher.finalize())
    }

    /// `0x19 0x01 ‖ separator ‖ structHash`: what a digest hashes (one at a time, or in a
    /// verifier's batch).
    func updateDigestMessage(structHash: ArraySlice<UInt8>, _ hasher: inout some WordHashing) {
        hasher.updateRaw((UInt8(0x19), UInt8(0x01)))
        hasher.updateBytes(separator)
        hasher.updateBytes(structHash)
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
