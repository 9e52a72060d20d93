import Codecs
import Crypto
import Secp256k1

/// One set of a mint's public keys, one per amount (NUT-01), under an id derived from them
/// (NUT-02). A keyset is accepted only when its id is the one its keys derive to, so a cached
/// keyset cannot be swapped for another under the same name.
public struct Keyset: Hashable, Sendable {
    /// `00` + 7 bytes (version 1) or `01` + 32 bytes (version 2).
    public let id: [UInt8]
    public let unit: String
    /// The mint's key for each amount.
    public let keys: [UInt64: PublicKey]
    /// Fee per input, in thousandths of the unit (NUT-02).
    public let inputFeePPK: UInt64
    /// After this Unix time the mint may refuse the keyset's proofs (NUT-02).
    public let finalExpiry: UInt64?
    /// Whether the mint still signs new outputs with it.
    public let active: Bool

    public init(
        id: [UInt8], unit: String, keys: [UInt64: PublicKey], inputFeePPK: UInt64 = 0,
        finalExpiry: UInt64? = nil, active: Bool = true
    ) throws(CashuError) {
        guard (id.first == 0x00 && id.count == 8) || (id.first == 0x01 && id.count == 33) else {
            throw CashuError(
                .unsupported, field: "id",
                "keyset id \(Hex.encode(id, prefix: false)) is neither version 00 (8 bytes) nor 01 (33 bytes)"
            )
        }
        guard !keys.isEmpty else {
            throw CashuError(.missingField, field: "keys", "keyset has no keys")
        }
        guard !unit.isEmpty else {
            throw CashuError(.missingField, field: "unit", "keyset has no unit")
        }
        let derived =
            id.first == 0x00
            ? Self.versionOneID(keys)
            : Self.versionTwoID(
                keys, unit: unit, inputFeePPK: inputFeePPK, finalExpiry: finalExpiry)
        guard derived == id else {
            throw CashuError(
                .keysetMismatch, field: "id",
                "keyset id \(Hex.encode(id, prefix: false)) is not the id its keys derive to (\(Hex.encode(derived, prefix: false)))"
            )
        }
        self.id = id
        self.unit = unit
        self.keys = keys
        self.inputFeePPK = inputFeePPK
        self.finalExpiry = finalExpiry
        self.active = active
    }

    public var idHex: String { Hex.encode(id, prefix: false) }

    /// NUT-02 version 1: `00` ‖ the first 7 bytes of SHA-256 over the compressed keys in
    /// ascending amount order.
    public static func versionOneID(_ keys: [UInt64: PublicKey]) -> [UInt8] {
        let concatenated = keys.sorted { $0.key < $1.key }.flatMap(\.value.compressed)
        return [0x00] + Array(SHA256.hash(data: concatenated)).prefix(7)
    }

    /// NUT-02 version 2: `01` ‖ SHA-256 of `amount:key,…|unit:U[|input_fee_ppk:F][|final_expiry:T]`.
    public static func versionTwoID(
        _ keys: [UInt64: PublicKey], unit: String, inputFeePPK: UInt64, finalExpiry: UInt64?
    ) -> [UInt8] {
        var preimage = keys.sorted { $0.key < $1.key }
            .map { "\($0.key):\(Hex.encode($0.value.compressed, prefix: false))" }
            .joined(separator: ",")
        preimage += "|unit:\(unit.lowercased())"
        if inputFeePPK != 0 { preimage += "|input_fee_ppk:\(inputFeePPK)" }
        if let finalExpiry, finalExpiry != 0 { preimage += "|final_expiry:\(finalExpiry)" }
        return [0x01] + Array(SHA256.hash(data: Array(preimage.utf8)))
    }

    /// The fee the mint takes for spending `inputs` proofs of this keyset, rounded up (NUT-02).
    public func fee(inputs: Int) -> UInt64 { (UInt64(inputs) * inputFeePPK + 999) / 1000 }

    /// The fee for spending `proofs`, each at its own keyset's rate, rounded up once (NUT-02).
    /// A rate is a mint's word: capped, so a hostile one cannot make the sum overflow.
    public static func fee(for proofs: [Proof], in keysets: [Keyset]) -> UInt64 {
        let ppk = proofs.reduce(UInt64(0)) { sum, proof in
            sum + min(keysets.first { $0.id == proof.keysetID }?.inputFeePPK ?? 0, 1 << 40)
        }
        return (ppk + 999) / 1000
    }
}
