import Codecs
import Tender

/// The `tender:` payment request URI: what a stall prints as a static "pay me" QR code.
///
/// Grammar (RFC 5234 ABNF; `DIGIT`, `HEXDIG`, `ALPHA` as in RFC 5234, `HEXDIG` either case):
///
///     tender-uri = scheme ":" address "?" param *( "&" param )
///     scheme     = "tender"                  ; any case: "TENDER:" is the same
///     address    = "0x" 40HEXDIG             ; the payee; all-lower, all-upper, or EIP-55
///     param      = "amount=" number          ; required: base units of the asset, 1 … 2^128-1
///                / "asset=" address          ; optional: token contract; absent = native coin
///                / "chain=" number           ; required: EIP-155 chain id, < 2^64
///                / "vault=" address          ; required: the vault contract (EIP-712 domain)
///                / "id=" 64HEXDIG            ; required: the 32-byte request id, no "0x"
///                / "exp=" number             ; required: expiry, Unix seconds, < 2^64
///                / "k=" 64HEXDIG             ; optional: payee's X25519 session key, no "0x"
///                / "memo=" *memochar         ; optional: UTF-8, at most 140 bytes decoded
///     number     = "0" / %x31-39 *DIGIT      ; decimal, no sign, no leading zeros
///     memochar   = ALPHA / DIGIT / "-" / "." / "_" / "~" / pct-encoded
///                / "!" / "$" / "'" / "(" / ")" / "*" / "," / ";" / ":" / "@" / "/" / "?"
///     pct-encoded = "%" HEXDIG HEXDIG
///
/// Rules:
/// - Parameters may come in any order; each at most once. A parameter not listed here is
///   refused: a later version adds parameters only with a version bump, so an old node never
///   silently drops a condition of the request.
/// - `+` in a memo is refused rather than guessed (form encoding reads it as a space, RFC 3986
///   as a plus): encoders write `%20` and `%2B`.
/// - `encode` writes the canonical form: parameters in the order above, EIP-55 addresses,
///   lowercase hex, `asset` only when not the native coin, `k` and `memo` only when present,
///   every memo byte outside the unreserved set as `%XX` (uppercase hex).
///
/// A typical request is about 300 characters, all ASCII: a QR code holds it in byte mode
/// (alphanumeric mode has no lowercase, `?`, `=` or `&`), version 10 or so at level M.
public enum TenderURI {
    public static let scheme = "tender"

    public static func encode(_ request: PaymentRequest) -> String {
        var uri = "\(scheme):\(request.payee.checksummed)?amount=\(request.amount)"
        if request.asset != Address.zero { uri += "&asset=\(request.asset.checksummed)" }
        uri += "&chain=\(request.domain.chainID)&vault=\(request.domain.vault.checksummed)"
        uri += "&id=\(Hex.encode(request.id.bytes, prefix: false))&exp=\(request.expiry)"
        if let key = request.sessionKey { uri += "&k=\(Hex.encode(key, prefix: false))" }
        if !request.memo.isEmpty { uri += "&memo=\(URIText.percentEncode(request.memo))" }
        return uri
    }

    /// The static form: `tender:ADDRESS?[asset=…&]chain=N&vault=0x…[&name=…]`.
    public static func encode(_ code: PayeeCode) -> String {
        var uri = "\(scheme):\(code.payee.checksummed)?"
        if code.asset != Address.zero { uri += "asset=\(code.asset.checksummed)&" }
        uri += "chain=\(code.domain.chainID)&vault=\(code.domain.vault.checksummed)"
        if !code.name.isEmpty { uri += "&name=\(URIText.percentEncode(code.name))" }
        return uri
    }

    /// Reads either form: a request (with amount, id and exp) or a static payee code (with
    /// none of them). A code with some but not all of the three is refused by name.
    public static func decodeAny(_ text: String) throws(PaymentCodeError) -> TenderCode {
        let (payee, fields) = try parse(text)
        let requestKeys = ["amount", "id", "exp", "k", "memo"]
        if requestKeys.allSatisfy({ fields[$0] == nil }) {
            let asset =
                try fields["asset"].map { (value) throws(PaymentCodeError) in
                    try address(value, field: "asset")
                } ?? Address.zero
            let chain = try ExactDecimal.uint64(try required(fields, "chain"), field: "chain")
            let vault = try address(try required(fields, "vault"), field: "vault")
            let name =
                try fields["name"].map { (raw) throws(PaymentCodeError) in
                    try URIText.percentDecode(raw, field: "name", strict: true)
                } ?? ""
            return .payee(
                try PayeeCode(
                    payee: payee, asset: asset, domain: Domain(chainID: chain, vault: vault),
                    name: name))
        }
        return .request(try decode(text))
    }

    /// Reads a `tender:` URI strictly; every refusal names the field and what is wrong.
    public static func decode(_ text: String) throws(PaymentCodeError) -> PaymentRequest {
        let (payee, fields) = try parse(text)
        if fields["name"] != nil {
            throw PaymentCodeError(
                .unknownField, field: "name", "belongs to a static payee code, not a request")
        }
        func required(_ key: String) throws(PaymentCodeError) -> Substring {
            try Self.required(fields, key)
        }
        return try request(payee: payee, fields: fields, required: required)
    }

    private static func required(
        _ fields: [String: Substring], _ key: String
    )
        throws(PaymentCodeError) -> Substring
    {
        guard let value = fields[key] else {
            throw PaymentCodeError(.missingField, field: key, "is required")
        }
        return value
    }

    /// The payee address and the parameters, each known and present at most once.
    private static func parse(
        _ text: String
    ) throws(PaymentCodeError) -> (
        Address, [String: Substring]
    ) {
        guard let rest = URIText.strip(scheme: scheme, from: text[...]) else {
            throw PaymentCodeError(.wrongScheme, field: "scheme", "does not start with 'tender:'")
        }
        guard let question = rest.firstIndex(of: "?") else {
            let field = rest.isEmpty ? "address" : "chain"
            throw PaymentCodeError(
                .missingField, field: field,
                rest.isEmpty
                    ? "no address after 'tender:'" : "no '?' and no parameters after the address")
        }
        let payee = try address(rest[..<question], field: "address")
        var fields: [String: Substring] = [:]
        for (rawKey, value) in try URIText.rawPairs(rest[rest.index(after: question)...]) {
            let key = String(rawKey)
            guard knownKeys.contains(key) else {
                throw PaymentCodeError(
                    .unknownField, field: key,
                    "is not a parameter of this tender: URI version (known: \(knownKeys.joined(separator: ", ")))"
                )
            }
            guard fields.updateValue(value, forKey: key) == nil else {
                throw PaymentCodeError(.duplicateField, field: key, "appears more than once")
            }
        }
        return (payee, fields)
    }

    private static func request(
        payee: Address, fields: [String: Substring],
        required: (String) throws(PaymentCodeError) -> Substring
    ) throws(PaymentCodeError) -> PaymentRequest {
        let amount = try ExactDecimal.integer(try required("amount"), field: "amount")
        guard amount > 0 else {
            throw PaymentCodeError(.malformedField, field: "amount", "must be positive")
        }
        let asset =
            try fields["asset"].map { (value) throws(PaymentCodeError) in
                try address(value, field: "asset")
            } ?? Address.zero
        let chain = try ExactDecimal.uint64(try required("chain"), field: "chain")
        let vault = try address(try required("vault"), field: "vault")
        let idBytes = try uncheckedHex32(try required("id"), field: "id")
        guard let id = try? Bytes32(idBytes) else {
            throw PaymentCodeError(.malformedField, field: "id", "must be 32 bytes")
        }
        let expiry = try ExactDecimal.uint64(try required("exp"), field: "exp")
        let key = try fields["k"].map { (value) throws(PaymentCodeError) in
            try uncheckedHex32(value, field: "k")
        }
        var memo = ""
        if let raw = fields["memo"] {
            memo = try URIText.percentDecode(raw, field: "memo", strict: true)
            guard memo.utf8.count <= PaymentRequest.maxMemoBytes else {
                throw PaymentCodeError(
                    .tooLarge, field: "memo",
                    "is \(memo.utf8.count) bytes of UTF-8; at most \(PaymentRequest.maxMemoBytes)")
            }
        }
        do {
            return try PaymentRequest(
                id: id, payee: payee, amount: amount, asset: asset, memo: memo, expiry: expiry,
                sessionKey: key, domain: Domain(chainID: chain, vault: vault))
        } catch {
            throw PaymentCodeError(.malformedField, field: "request", error.description)
        }
    }

    private static let knownKeys = [
        "amount", "asset", "chain", "vault", "id", "exp", "k", "memo", "name",
    ]

    static func address(_ text: Substring, field: String) throws(PaymentCodeError) -> Address {
        let bytes = Array(text.utf8)
        guard bytes.count == 42, bytes[0] == UInt8(ascii: "0"),
            bytes[1] == UInt8(ascii: "x") || bytes[1] == UInt8(ascii: "X"),
            bytes[2...].allSatisfy({ URIText.hexValue($0) != nil })
        else {
            throw PaymentCodeError(
                .malformedField, field: field, "'\(text)' is not 0x followed by 40 hex digits")
        }
        do { return try Address(String(text)) } catch {
            throw PaymentCodeError(
                .badChecksum, field: field, "'\(text)' fails its EIP-55 checksum (mistyped?)")
        }
    }

    /// Exactly 64 hex digits, no prefix.
    private static func uncheckedHex32(
        _ text: Substring, field: String
    ) throws(PaymentCodeError)
        -> [UInt8]
    {
        guard text.utf8.count == 64, let bytes = try? Hex.decode(text),
            !text.hasPrefix("0x"), !text.hasPrefix("0X")
        else {
            throw PaymentCodeError(
                .malformedField, field: field,
                "must be exactly 64 hex digits (32 bytes, no 0x), got '\(text.prefix(80))'")
        }
        return bytes
    }
}
