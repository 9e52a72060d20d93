import Codecs
import Secp256k1

/// An issuance: `issuer` promises `amount` of `asset` to `owner` until `expiry` (Unix seconds),
/// backed by collateral in the vault.
public struct Note: TypedStruct, Hashable {
    public static let primaryType = "Note"

    public let serial: Bytes32
    public let issuer: Address
    public let asset: Address
    public let amount: Amount
    public let owner: Address
    public let expiry: UInt64

    public init(
        serial: Bytes32, issuer: Address, asset: Address, amount: Amount, owner: Address,
        expiry: UInt64
    ) {
        self.serial = serial
        self.issuer = issuer
        self.asset = asset
        self.amount = amount
        self.owner = owner
        self.expiry = expiry
    }

    public var structHash: [UInt8] {
        var hasher = Keccak256()
        hasher.update(TypeHashes.note)
        hasher.update(serial.bytes)
        hasher.update(issuer.word)
        hasher.update(asset.word)
        hasher.update(amount.word)
        hasher.update(owner.word)
        hasher.update(expiry.word)
        return hasher.finalize()
    }

    public var typedValue: [String: EIP712.Value] {
        [
            "serial": .fixedBytes(serial.bytes), "issuer": .address(issuer.bytes),
            "asset": .address(asset.bytes), "amount": .uint(amount), "owner": .address(owner.bytes),
            "expiry": .uint(UInt128(expiry)),
        ]
    }
}

/// A note with the issuer's signature over its EIP-712 digest.
public struct SignedNote: Hashable, Sendable {
    public let note: Note
    public let signature: RecoverableSignature

    public init(note: Note, signature: RecoverableSignature) {
        self.note = note
        self.signature = signature
    }

    /// Signs `note` with the issuer's key; refuses a key that is not the note's issuer.
    public init(signing note: Note, with key: PrivateKey, in domain: Domain) throws(ProtocolError) {
        guard Address(publicKey: key.publicKey) == note.issuer else {
            throw ProtocolError(
                .wrongSigner(expected: note.issuer, actual: Address(publicKey: key.publicKey)))
        }
        self.note = note
        self.signature = try sign(note.digest(in: domain), with: key)
    }

    /// The genesis coin: `keccak256(noteDigest ‖ 0)`.
    public func coinID(in domain: Domain) -> CoinID {
        Tender.coinID(digest: note.digest(in: domain), index: 0)
    }
}

/// Signs a digest, mapping curve errors (which cannot happen for a valid key and 32-byte digest).
func sign(_ digest: Bytes32, with key: PrivateKey) throws(ProtocolError) -> RecoverableSignature {
    do { return try key.sign(digest: digest.bytes) } catch {
        throw ProtocolError(.malformed("signing failed: \(error)"))
    }
}

/// The address that signed `digest`, or nil when nothing recovers.
func signer(of digest: Bytes32, signature: RecoverableSignature) -> Address? {
    guard let key = try? signature.recoverPublicKey(digest: digest.bytes) else { return nil }
    return Address(publicKey: key)
}
