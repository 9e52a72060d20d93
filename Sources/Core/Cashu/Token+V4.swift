import Codecs
import Secp256k1

/// NUT-00 V4: a CBOR map `m` (mint), `u` (unit), `d` (memo), `t` (groups of proofs by keyset
/// `i`, each proof `a`, `s`, `c`, optional `d` {e, s, r} and `w`). Unknown fields are ignored,
/// as NUT-00 asks; duplicate keys are refused.
extension Token {
    static func decodeV4(cbor bytes: [UInt8]) throws(CashuError) -> Token {
        let tree: CBOR
        do {
            // NUT-00's own example writes map keys in insertion order, so the deterministic
            // order cannot be required.
            var options = CBORDecodingOptions.lenient
            options.maxInputBytes = maxTextBytes
            tree = try CBOR.decode(bytes, options: options)
        } catch { throw CashuError(.malformed, field: "token", "V4 token is not CBOR: \(error)") }
        guard tree.mapEntries != nil else {
            throw CashuError(.malformed, field: "token", "V4 token is not a CBOR map")
        }
        let mint = try text(tree, "m", in: "token")
        let unit = try text(tree, "u", in: "token")
        let memo: String?
        switch tree[.text("d")] {
        case nil: memo = nil
        case .text(let value)?: memo = value
        default: throw CashuError(.malformed, field: "d", "memo is not a text string")
        }
        guard let groups = tree[.text("t")]?.arrayValue, !groups.isEmpty else {
            throw CashuError(.missingField, field: "t", "V4 token has no proofs")
        }
        var proofs: [Proof] = []
        for (index, group) in groups.enumerated() {
            guard let keyset = group[.text("i")]?.bytesValue, !keyset.isEmpty else {
                throw CashuError(
                    .malformed, field: "t[\(index)].i", "keyset id missing or not bytes")
            }
            guard let entries = group[.text("p")]?.arrayValue, !entries.isEmpty else {
                throw CashuError(
                    .malformed, field: "t[\(index)].p", "proofs missing, empty or not a list")
            }
            for (position, entry) in entries.enumerated() {
                proofs.append(try proof(entry, keyset: keyset, field: "t[\(index)].p[\(position)]"))
            }
        }
        let token = Token(mint: mint, unit: unit, memo: memo, proofs: proofs)
        guard token.amount != nil else {
            throw CashuError(.malformed, field: "t", "proof amounts overflow 64 bits")
        }
        return token
    }

    private static func text(
        _ map: CBOR, _ key: String, in field: String
    ) throws(CashuError)
        -> String
    {
        guard let value = map[.text(key)] else {
            throw CashuError(.missingField, field: key, "\(field) has no '\(key)'")
        }
        guard let text = value.textValue, !text.isEmpty else {
            throw CashuError(.malformed, field: key, "is not a non-empty text string")
        }
        return text
    }

    private static func proof(
        _ entry: CBOR, keyset: [UInt8], field: String
    ) throws(CashuError)
        -> Proof
    {
        guard entry.mapEntries != nil else {
            throw CashuError(.malformed, field: field, "proof is not a map")
        }
        guard let amount = entry[.text("a")]?.unsignedValue else {
            throw CashuError(
                .malformed, field: "\(field).a", "amount missing or not an unsigned integer")
        }
        guard let secret = entry[.text("s")]?.textValue else {
            throw CashuError(.malformed, field: "\(field).s", "secret missing or not text")
        }
        guard let signatureBytes = entry[.text("c")]?.bytesValue,
            signatureBytes.count == 33,
            let signature = try? PublicKey(serialized: signatureBytes)
        else {
            throw CashuError(
                .malformed, field: "\(field).c", "signature is not a 33-byte compressed point")
        }
        var dleq: DLEQProof?
        if let d = entry[.text("d")] {
            guard let e = d[.text("e")]?.bytesValue, let s = d[.text("s")]?.bytesValue else {
                throw CashuError(.malformed, field: "\(field).d", "DLEQ needs byte strings e and s")
            }
            let r = d[.text("r")]?.bytesValue
            if d[.text("r")] != nil && r == nil {
                throw CashuError(.malformed, field: "\(field).d.r", "is not a byte string")
            }
            dleq = try DLEQProof(e: e, s: s, r: r)
        }
        var witness: String?
        if let w = entry[.text("w")] {
            guard let text = w.textValue else {
                throw CashuError(.malformed, field: "\(field).w", "witness is not text")
            }
            witness = text
        }
        return Proof(
            amount: amount, keysetID: keyset, secret: secret, signature: signature, dleq: dleq,
            witness: witness)
    }

    /// The V4 CBOR tree: proofs grouped by keyset in the order they first appear.
    func cbor() -> CBOR {
        var order: [[UInt8]] = []
        var groups: [[UInt8]: [CBOR]] = [:]
        for proof in proofs {
            if groups[proof.keysetID] == nil { order.append(proof.keysetID) }
            var fields: [CBOR.Entry] = [
                .init(.text("a"), .unsigned(proof.amount)),
                .init(.text("s"), .text(proof.secret)),
                .init(.text("c"), .bytes(proof.signature.compressed)),
            ]
            if let dleq = proof.dleq {
                var d: [CBOR.Entry] = [
                    .init(.text("e"), .bytes(dleq.e)), .init(.text("s"), .bytes(dleq.s)),
                ]
                if let r = dleq.r { d.append(.init(.text("r"), .bytes(r))) }
                fields.append(.init(.text("d"), .map(d)))
            }
            if let witness = proof.witness { fields.append(.init(.text("w"), .text(witness))) }
            groups[proof.keysetID, default: []].append(.map(fields))
        }
        var entries: [CBOR.Entry] = [
            .init(.text("m"), .text(mint)),
            .init(.text("u"), .text(unit)),
            .init(
                .text("t"),
                .array(
                    order.map {
                        .map([
                            .init(.text("i"), .bytes($0)), .init(.text("p"), .array(groups[$0]!)),
                        ])
                    })),
        ]
        if let memo { entries.append(.init(.text("d"), .text(memo))) }
        return .map(entries)
    }
}
