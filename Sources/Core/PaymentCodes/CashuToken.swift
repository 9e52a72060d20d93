import Codecs

/// A serialized Cashu ecash token (NUT-00): `cashuA` + base64url(JSON) (V3) or `cashuB` +
/// base64url(CBOR) (V4), with an optional `cashu:` URI prefix. Read for display: mint, unit,
/// proofs and total. Tender's Cashu wallet takes it (the Cashu module); it is a bearer token, so whoever holds the
/// string can spend it.
public struct CashuToken: Hashable, Sendable {
    public enum Version: String, Hashable, Sendable {
        case v3 = "A"
        case v4 = "B"
    }

    /// The proofs of one mint (V3 may carry several; V4 exactly one).
    public struct MintProofs: Hashable, Sendable {
        public let mint: String
        /// Amount of each proof, in the token's unit, in order.
        public let amounts: [UInt64]
        /// Keyset ids (hex) the proofs name.
        public let keysets: [String]
    }

    public let version: Version
    public let mints: [MintProofs]
    /// `sat`, `msat`, `usd`, …; nil when a V3 token leaves it out.
    public let unit: String?
    public let memo: String?
    /// Sum of every proof.
    public let total: UInt128

    public static let maxTokenBytes = 64 << 10

    public static func decode(_ text: String) throws(PaymentCodeError) -> CashuToken {
        let body = URIText.strip(scheme: "cashu", from: text[...]) ?? text[...]
        guard body.hasPrefix("cashu"), body.utf8.count > 6 else {
            throw PaymentCodeError(
                .wrongScheme, field: "prefix", "is not 'cashu', a version letter and a token")
        }
        guard body.utf8.count <= maxTokenBytes * 4 / 3 + 16 else {
            throw PaymentCodeError(.tooLarge, field: "token", "longer than \(maxTokenBytes) bytes")
        }
        let versionCharacter = body[body.index(body.startIndex, offsetBy: 5)]
        guard let version = Version(rawValue: String(versionCharacter)) else {
            throw PaymentCodeError(
                .unsupported, field: "version",
                "token version '\(versionCharacter)' is not A (V3) or B (V4)")
        }
        let payload: [UInt8]
        do { payload = try Base64URL.decode(body.dropFirst(6)) } catch {
            throw PaymentCodeError(.malformedField, field: "token", error.description)
        }
        switch version {
        case .v3:
            let json: JSON
            do { json = try JSON.parse(payload) } catch {
                throw PaymentCodeError(.malformedField, field: "token", error.description)
            }
            return try v3(json)
        case .v4: return try v4(payload)
        }
    }

    private static func fail(_ field: String, _ message: String) -> PaymentCodeError {
        PaymentCodeError(.malformedField, field: field, message)
    }

    private static func v3(_ json: JSON) throws(PaymentCodeError) -> CashuToken {
        guard case .array(let entries)? = json["token"], !entries.isEmpty else {
            throw PaymentCodeError(.missingField, field: "token", "V3 token has no 'token' list")
        }
        var mints: [MintProofs] = []
        var total: UInt128 = 0
        for (index, entry) in entries.enumerated() {
            guard case .string(let mint)? = entry["mint"] else {
                throw fail("token[\(index)].mint", "missing or not a string")
            }
            guard case .array(let proofs)? = entry["proofs"], !proofs.isEmpty else {
                throw fail("token[\(index)].proofs", "missing, empty or not a list")
            }
            var amounts: [UInt64] = []
            var keysets: [String] = []
            for (position, proof) in proofs.enumerated() {
                let field = "token[\(index)].proofs[\(position)]"
                guard case .number(let number)? = proof["amount"],
                    let amount = try? ExactDecimal.uint64(number[...], field: "amount")
                else { throw fail("\(field).amount", "missing or not a whole number") }
                guard case .string? = proof["secret"], case .string? = proof["C"] else {
                    throw fail(field, "needs a 'secret' and a 'C' string")
                }
                if case .string(let id)? = proof["id"], !keysets.contains(id) { keysets.append(id) }
                amounts.append(amount)
                total = try add(total, amount)
            }
            mints.append(MintProofs(mint: mint, amounts: amounts, keysets: keysets))
        }
        func optionalString(_ key: String) throws(PaymentCodeError) -> String? {
            switch json[key] {
            case nil, .null?: nil
            case .string(let value)?: value
            default: throw fail(key, "is not a string")
            }
        }
        return CashuToken(
            version: .v3, mints: mints, unit: try optionalString("unit"),
            memo: try optionalString("memo"), total: total)
    }

    private static func v4(_ bytes: [UInt8]) throws(PaymentCodeError) -> CashuToken {
        // NUT-00's own V4 example writes map keys in insertion order ("t" before "m"), so
        // deterministic key order cannot be required; everything else stays strict
        // (definite lengths are not required either, duplicate keys are always refused).
        let tree: CBOR
        do {
            var options = CBORDecodingOptions.lenient
            options.maxInputBytes = maxTokenBytes
            tree = try CBOR.decode(bytes, options: options)
        } catch { throw fail("token", "V4 token is not CBOR: \(error)") }
        guard tree.mapEntries != nil else { throw fail("token", "V4 token is not a CBOR map") }
        guard let mint = tree[.text("m")]?.textValue else {
            throw PaymentCodeError(.missingField, field: "m", "V4 token has no mint URL")
        }
        guard let unit = tree[.text("u")]?.textValue else {
            throw PaymentCodeError(.missingField, field: "u", "V4 token has no unit")
        }
        let memo: String?
        switch tree[.text("d")] {
        case nil: memo = nil
        case .text(let text)?: memo = text
        default: throw fail("d", "memo is not a text string")
        }
        guard let groups = tree[.text("t")]?.arrayValue, !groups.isEmpty else {
            throw PaymentCodeError(.missingField, field: "t", "V4 token has no proofs")
        }
        var amounts: [UInt64] = []
        var keysets: [String] = []
        var total: UInt128 = 0
        for (index, group) in groups.enumerated() {
            guard let keyset = group[.text("i")]?.bytesValue else {
                throw fail("t[\(index)].i", "keyset id missing or not a byte string")
            }
            guard let proofs = group[.text("p")]?.arrayValue, !proofs.isEmpty else {
                throw fail("t[\(index)].p", "proofs missing, empty or not a list")
            }
            keysets.append(Hex.encode(keyset, prefix: false))
            for (position, proof) in proofs.enumerated() {
                let field = "t[\(index)].p[\(position)]"
                guard let amount = proof[.text("a")]?.unsignedValue else {
                    throw fail("\(field).a", "amount missing or not an unsigned integer")
                }
                guard proof[.text("s")]?.textValue != nil, proof[.text("c")]?.bytesValue != nil
                else {
                    throw fail(field, "needs an 's' text secret and a 'c' byte-string signature")
                }
                amounts.append(amount)
                total = try add(total, amount)
            }
        }
        return CashuToken(
            version: .v4, mints: [MintProofs(mint: mint, amounts: amounts, keysets: keysets)],
            unit: unit, memo: memo, total: total)
    }

    private static func add(_ total: UInt128, _ amount: UInt64) throws(PaymentCodeError) -> UInt128
    {
        let (sum, overflow) = total.addingReportingOverflow(UInt128(amount))
        guard !overflow else { throw fail("amount", "proof amounts overflow 2^128") }
        return sum
    }

    public var proofCount: Int { mints.reduce(0) { $0 + $1.amounts.count } }

    public var explanation: String {
        let mintList = mints.map(\.mint).joined(separator: ", ")
        var text = "Cashu ecash token (\(version == .v3 ? "V3, cashuA" : "V4, cashuB"))"
        text += " from mint\(mints.count > 1 ? "s" : "") \(mintList): \(proofCount) proof"
        text += proofCount == 1 ? "" : "s"
        text += " worth \(CashuUnit.text(total, unit: unit)) in total."
        if let memo, !memo.isEmpty { text += " Memo: \"\(memo)\"." }
        text += " Whoever holds this string can spend it: keep it private."
        return text
            + " Tender's Cashu wallet takes it offline once it holds that mint's keys, and swaps it at the mint."
    }
}
