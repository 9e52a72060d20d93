/// NUT-26's encoding: bech32m with human-readable part `creqb`, over TLV records (type: 1 byte,
/// length: 2 bytes big-endian, value). Unknown top-level and sub-level types are skipped, as
/// NUT-26 requires; a known one with the wrong size, a truncated record, or a single-valued
/// field given twice is refused by name.
///
/// Nostr targets travel as a raw 32-byte key with relays as `r` tags; they read back as the
/// NIP-19 `nprofile` (key, then the relays in order) NUT-26's test vectors give, and the `r`
/// tags leave the transport's tags.
enum CashuRequestTLV {
    static func decode(_ text: Substring) throws(PaymentCodeError) -> CashuPaymentRequest {
        let decoded: (hrp: String, data: [UInt8])
        do { decoded = try Bech32.decode(text, variant: .bech32m) } catch {
            throw PaymentCodeError(error.kind, field: error.field, error.message)
        }
        guard decoded.hrp == "creqb" else {
            throw PaymentCodeError(.wrongScheme, field: "hrp", "'\(decoded.hrp)' is not 'creqb'")
        }
        guard let bytes = Bech32.strictBytes(from: decoded.data) else {
            throw fail("request", "bech32m data does not end on a whole byte")
        }
        var id: String?
        var amount: UInt64?
        var unit: String?
        var singleUse: Bool?
        var mints: [String]?
        var description: String?
        var transports: [CashuPaymentRequest.Transport]?
        var lock: CashuPaymentRequest.Lock?
        for (type, value) in try records(bytes[...], field: "request") {
            switch type {
            case 0x01:
                id = try once(id, "id") { () throws(PaymentCodeError) in try utf8(value, "id") }
            case 0x02:
                amount = try once(amount, "amount") { () throws(PaymentCodeError) in
                    guard value.count == 8 else { throw fail("amount", "is not 8 bytes (u64)") }
                    return value.reduce(0) { $0 << 8 | UInt64($1) }
                }
            case 0x03:
                unit = try once(unit, "unit") { () throws(PaymentCodeError) in
                    if value.elementsEqual([0]) { return "sat" }
                    guard !value.isEmpty else { throw fail("unit", "is empty") }
                    return try utf8(value, "unit")
                }
            case 0x04:
                singleUse = try once(singleUse, "single_use") { () throws(PaymentCodeError) in
                    guard value.count == 1, value.first! <= 1 else {
                        throw fail("single_use", "is not one byte 0 or 1")
                    }
                    return value.first == 1
                }
            case 0x05:
                let mint = try utf8(value, "mint")
                guard !mint.isEmpty else { throw fail("mint", "is empty") }
                mints = (mints ?? []) + [mint]
            case 0x06:
                description = try once(description, "description") {
                    () throws(PaymentCodeError) in try utf8(value, "description")
                }
            case 0x07:
                let index = transports?.count ?? 0
                transports =
                    (transports ?? []) + [try transport(value, field: "transport[\(index)]")]
            case 0x08:
                lock = try once(lock, "nut10") { () throws(PaymentCodeError) in try Self.lock(value)
                }
            default: continue  // NUT-26: unknown tags MUST be ignored.
            }
        }
        if amount != nil && unit == nil {
            throw PaymentCodeError(
                .missingField, field: "unit", "an amount is given without its unit")
        }
        return CashuPaymentRequest(
            encoding: .creqB, id: id, amount: amount, unit: unit, singleUse: singleUse,
            mints: mints,
            requestDescription: description, transports: transports, lock: lock)
    }

    private static func transport(
        _ bytes: ArraySlice<UInt8>, field: String
    )
        throws(PaymentCodeError) -> CashuPaymentRequest.Transport
    {
        var kind: UInt8?
        var target: ArraySlice<UInt8>?
        var tags: [[String]] = []
        for (type, value) in try records(bytes, field: field) {
            switch type {
            case 0x01:
                kind = try once(kind, "\(field).kind") { () throws(PaymentCodeError) in
                    guard value.count == 1 else { throw fail("\(field).kind", "is not one byte") }
                    return value.first!
                }
            case 0x02: target = try once(target, "\(field).target") { value }
            case 0x03: tags.append(try tag(value, field: "\(field).tag[\(tags.count)]"))
            default: continue
            }
        }
        guard let kind else {
            throw PaymentCodeError(.missingField, field: "\(field).kind", "transport has no kind")
        }
        guard let target else {
            throw PaymentCodeError(
                .missingField, field: "\(field).target", "transport has no target")
        }
        switch kind {
        case 0:
            guard target.count == 32 else {
                throw fail("\(field).target", "a Nostr key is 32 bytes, not \(target.count)")
            }
            let relays = tags.filter { $0.first == "r" }
            var profile: [UInt8] = [0, 32] + target
            for relay in relays {
                guard relay.count == 2, relay[1].utf8.count <= 255 else {
                    throw fail(
                        "\(field).tag", "an 'r' tag must hold one relay URL of at most 255 bytes")
                }
                profile += [1, UInt8(relay[1].utf8.count)] + Array(relay[1].utf8)
            }
            let others = tags.filter { $0.first != "r" }
            return CashuPaymentRequest.Transport(
                type: "nostr",
                target: Bech32.encode(hrp: "nprofile", data: Bech32.values(from: profile)),
                tags: others.isEmpty ? nil : others)
        case 1:
            let url = try utf8(target, "\(field).target")
            guard !url.isEmpty else { throw fail("\(field).target", "URL is empty") }
            return CashuPaymentRequest.Transport(
                type: "post", target: url, tags: tags.isEmpty ? nil : tags)
        default:
            throw PaymentCodeError(
                .unsupported, field: "\(field).kind",
                "transport kind \(kind) is not 0 (nostr) or 1 (HTTP POST)")
        }
    }

    private static func lock(
        _ bytes: ArraySlice<UInt8>
    ) throws(PaymentCodeError)
        -> CashuPaymentRequest.Lock
    {
        var kind: UInt8?
        var data: String?
        var tags: [[String]] = []
        for (type, value) in try records(bytes, field: "nut10") {
            switch type {
            case 0x01:
                kind = try once(kind, "nut10.kind") { () throws(PaymentCodeError) in
                    guard value.count == 1 else { throw fail("nut10.kind", "is not one byte") }
                    return value.first!
                }
            case 0x02:
                data = try once(data, "nut10.data") { () throws(PaymentCodeError) in
                    try utf8(value, "nut10.data")
                }
            case 0x03: tags.append(try tag(value, field: "nut10.tag[\(tags.count)]"))
            default: continue
            }
        }
        guard let kind else {
            throw PaymentCodeError(.missingField, field: "nut10.kind", "lock has no kind")
        }
        guard let data else {
            throw PaymentCodeError(.missingField, field: "nut10.data", "lock has no data")
        }
        // NUT-26's kind table; a later kind is kept by number (NUT-26: preserve unknown kinds).
        let name = [0: "P2PK", 1: "HTLC"][kind] ?? "kind \(kind)"
        return CashuPaymentRequest.Lock(kind: name, data: data, tags: tags.isEmpty ? nil : tags)
    }

    /// A tag tuple: key length (1 byte), key, then (length, value) for each value.
    private static func tag(
        _ bytes: ArraySlice<UInt8>, field: String
    ) throws(PaymentCodeError)
        -> [String]
    {
        var rest = bytes
        var tuple: [String] = []
        while let length = rest.first {
            rest = rest.dropFirst()
            guard rest.count >= Int(length) else {
                throw fail(field, "tag runs past its record")
            }
            tuple.append(try utf8(rest.prefix(Int(length)), field))
            rest = rest.dropFirst(Int(length))
        }
        guard let name = tuple.first, !name.isEmpty else { throw fail(field, "tag has no name") }
        return tuple
    }

    private static func records(
        _ bytes: ArraySlice<UInt8>, field: String
    )
        throws(PaymentCodeError) -> [(type: UInt8, value: ArraySlice<UInt8>)]
    {
        var out: [(type: UInt8, value: ArraySlice<UInt8>)] = []
        var rest = bytes
        while !rest.isEmpty {
            guard rest.count >= 3 else { throw fail(field, "a TLV record header is cut short") }
            let start = rest.startIndex
            let type = rest[start]
            let length = Int(rest[start + 1]) << 8 | Int(rest[start + 2])
            rest = rest.dropFirst(3)
            guard rest.count >= length else {
                throw fail(
                    field, "TLV record \(type) declares \(length) bytes, \(rest.count) remain")
            }
            out.append((type, rest.prefix(length)))
            rest = rest.dropFirst(length)
        }
        return out
    }

    private static func once<Value>(
        _ existing: Value?, _ field: String, _ read: () throws(PaymentCodeError) -> Value
    ) throws(PaymentCodeError) -> Value {
        guard existing == nil else {
            throw PaymentCodeError(.duplicateField, field: field, "appears more than once")
        }
        return try read()
    }

    private static func utf8(
        _ bytes: ArraySlice<UInt8>, _ field: String
    ) throws(PaymentCodeError)
        -> String
    {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw fail(field, "is not UTF-8")
        }
        return text
    }

    private static func fail(_ field: String, _ message: String) -> PaymentCodeError {
        PaymentCodeError(.malformedField, field: field, message)
    }
}
