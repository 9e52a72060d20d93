import Cashu
import Codecs

/// Requests as the mint reads them (NUT-00). A proof goes without its DLEQ proof: its `r`
/// would let the mint link the proof to the output it signed (NUT-12).
enum Wire {
    /// A full keyset id: version 00 (8 bytes) or version 01 (33 bytes). The mint knows no
    /// short ids (NUT-02), so a token's 8-byte prefix of a version 01 id is refused here.
    static func checkKeysetID(_ id: [UInt8], at path: String) throws(MalformedRequest) {
        switch (id.first, id.count) {
        case (0x00, 8), (0x01, 33): return
        case (0x01, 8):
            throw MalformedRequest(
                "\(path).id \(Hex.encode(id, prefix: false)) is the short form of a keyset id;"
                    + " resolve it to the full id from the mint's keysets first")
        default:
            throw MalformedRequest(
                "\(path).id \(Hex.encode(id, prefix: false)) is not a keyset id")
        }
    }

    /// `{"amount", "id", "secret", "C", "witness"?}`; the secret as held, byte for byte.
    static func proofs(_ proofs: [Proof], field: String) throws(MalformedRequest) -> JSON {
        var list: [JSON] = []
        for (index, proof) in proofs.enumerated() {
            try checkKeysetID(proof.keysetID, at: "\(field)[\(index)]")
            var entries: [(key: String, value: JSON)] = [
                ("amount", .number(String(proof.amount))),
                ("id", .string(Hex.encode(proof.keysetID, prefix: false))),
                ("secret", .string(proof.secret)),
                ("C", .string(Hex.encode(proof.signature.compressed, prefix: false))),
            ]
            if let witness = proof.witness { entries.append(("witness", .string(witness))) }
            list.append(.object(entries))
        }
        return .array(list)
    }

    /// `{"amount", "id", "B_"}`.
    static func outputs(
        _ outputs: [BlindedMessage], field: String = "outputs"
    )
        throws(MalformedRequest) -> JSON
    {
        var list: [JSON] = []
        for (index, output) in outputs.enumerated() {
            try checkKeysetID(output.keysetID, at: "\(field)[\(index)]")
            list.append(
                .object([
                    ("amount", .number(String(output.amount))),
                    ("id", .string(Hex.encode(output.keysetID, prefix: false))),
                    ("B_", .string(Hex.encode(output.blinded.compressed, prefix: false))),
                ]))
        }
        return .array(list)
    }
}

/// What is wrong with a request before it is sent; becomes `MintError.invalidRequest`.
struct MalformedRequest: Error, Equatable {
    let what: String

    init(_ what: String) { self.what = what }
}
