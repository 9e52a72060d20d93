/// Why the Cashu store refused an operation. Nothing was written when one is thrown.
public struct CashuStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// A proof of the token is held already (received, or this wallet's own).
        case alreadyHeld = "already-held"
        /// The mint is not one this wallet knows (`cashu mint add` first).
        case unknownMint = "unknown-mint"
        /// A keyset id already stored with other keys (NUT-02 asks wallets to refuse it).
        case keysetCollision = "keyset-collision"
        /// Not enough spendable proofs, or none that make the amount exactly.
        case insufficient
        /// No such swap or payment, or not in the state the operation needs.
        case notFound = "not-found"
        /// A row that cannot be decoded: the file was edited or corrupted.
        case corrupt
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var code: String { kind.rawValue }
    public var description: String { message }
}
