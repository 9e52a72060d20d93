import Codecs

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
        updateStruct(&hasher)
        return hasher.finalize()
    }

    /// `hashStruct(note)`'s message: the type hash, then each field as a word.
    func updateStruct(_ hasher: inout some WordHashing) {
        hasher.updateBytes(TypeHashes.note)
        hasher.updateBytes(serial.bytes)
        hasher.updateWord(issuer)
        hasher.updateWord(asset)
        hasher.updateWord(amount)
        hasher.updateWord(owner)
        hasher.updateWord(expiry)
    }

    public var typedValue: [String: EIP712.Value] {
        [
            "serial": .fixedBytes(serial.bytes), "issuer": .address(issuer.bytes),
            "asset": .address(asset.bytes), "amount": .uint(amount), "owner": .address(owner.bytes),
            "expiry": .uint(UInt128(expiry)),
        ]
    }
}
