import Codecs

/// NUT-18's encoding: `creqA` + base64url(CBOR map). Every known field is type-checked and
/// named when wrong; `null` and `undefined` read as "absent" (NUT-18's own test vectors write
/// a transport's missing tags as `undefined`); keys a later NUT adds are ignored, as NUT-26
/// says of its tags.
enum CashuRequestCBOR {
    static func decode(_ payload: Substring) throws(PaymentCodeError) -> CashuPaymentRequest {
        let bytes: [UInt8]
        do { bytes = try Base64URL.decode(payload) } catch {
            throw PaymentCodeError(.malformedField, field: "request", error.description)
        }
        let tree: CBOR
        do {
            var options = CBORDecodingOptions.lenient
            options.maxInputBytes = CashuPaymentRequest.maxRequestBytes
            tree = try CBOR.decode(bytes, options: options)
        } catch { throw fail("request", "is not CBOR: \(error)") }
        guard let entries = tree.mapEntries else { throw fail("request", "is not a CBOR map") }
        for entry in entries where entry.key.textValue == nil {
            throw fail("request", "has a map key that is not text")
        }
        let amount = try present(tree, "a").map { value throws(PaymentCodeError) in
            guard let amount = value.unsignedValue else {
                throw fail("a", "amount is not an unsigned integer")
            }
            return amount
        }
        let unit = try text(tree, "u")
        if amount != nil && unit == nil {
            throw PaymentCodeError(.missingField, field: "u", "an amount is given without its unit")
        }
        if unit?.isEmpty == true { throw fail("u", "unit is empty") }
        let singleUse = try present(tree, "s").map { value throws(PaymentCodeError) in
            guard case .boolean(let flag) = value else { throw fail("s", "is not true or false") }
            return flag
        }
        let mints = try present(tree, "m").map { value throws(PaymentCodeError) in
            try strings(value, field: "m", nonEmpty: true)
        }
        let transports = try present(tree, "t").map { value throws(PaymentCodeError) in
            guard let list = value.arrayValue else { throw fail("t", "transports are not a list") }
            var transports: [CashuPaymentRequest.Transport] = []
            for (index, item) in list.enumerated() {
                transports.append(try transport(item, field: "t[\(index)]"))
            }
            return transports
        }
        let lock = try present(tree, "nut10").map { value throws(PaymentCodeError) in
            try Self.lock(value)
        }
        return CashuPaymentRequest(
            encoding: .creqA, id: try text(tree, "i"), amount: amount, unit: unit,
            singleUse: singleUse, mints: mints, requestDescription: try text(tree, "d"),
            transports: transports, lock: lock)
    }

    /// `creqA` + base64url(CBOR): the absent fields left out, the keys in deterministic CBOR's
    /// order (as every CBOR Tender writes), without padding, as nutshell writes it (readers
    /// pad).
    static func encode(_ request: CashuPaymentRequest) -> String {
        func texts(_ list: [String]) -> CBOR { .array(list.map { .text($0) }) }
        func tags(_ tags: [[String]]) -> CBOR { .array(tags.map(texts)) }
        var entries: [CBOR.Entry] = []
        func add(_ key: String, _ value: CBOR?) {
            if let value { entries.append(CBOR.Entry(.text(key), value)) }
        }
        add("i", request.id.map { .text($0) })
        add("a", request.amount.map { .unsigned($0) })
        add("u", request.unit.map { .text($0) })
        add("s", request.singleUse.map { .boolean($0) })
        add("m", request.mints.map(texts))
        add("d", request.requestDescription.map { .text($0) })
        add(
            "t",
            request.transports.map { list in
                .array(
                    list.map { transport in
                        var fields = [
                            CBOR.Entry(.text("t"), .text(transport.type)),
                            CBOR.Entry(.text("a"), .text(transport.target)),
                        ]
                        if let g = transport.tags { fields.append(CBOR.Entry(.text("g"), tags(g))) }
                        return .map(fields)
                    })
            })
        add(
            "nut10",
            request.lock.map { lock in
                var fields = [
                    CBOR.Entry(.text("k"), .text(lock.kind)),
                    CBOR.Entry(.text("d"), .text(lock.data)),
                ]
                if let t = lock.tags { fields.append(CBOR.Entry(.text("t"), tags(t))) }
                return .map(fields)
            })
        return "creqA" + Base64URL.encode(CBOR.map(entries).encoded())
    }

    private static func transport(
        _ item: CBOR, field: String
    ) throws(PaymentCodeError)
        -> CashuPaymentRequest.Transport
    {
        guard item.mapEntries != nil else { throw fail(field, "transport is not a map") }
        guard let type = try text(item, "t", field: "\(field).t"), !type.isEmpty else {
            throw PaymentCodeError(.missingField, field: "\(field).t", "transport has no type")
        }
        guard let target = try text(item, "a", field: "\(field).a"), !target.isEmpty else {
            throw PaymentCodeError(.missingField, field: "\(field).a", "transport has no target")
        }
        return CashuPaymentRequest.Transport(
            type: type, target: target, tags: try tags(item, "g", field: "\(field).g"))
    }

    private static func lock(_ value: CBOR) throws(PaymentCodeError) -> CashuPaymentRequest.Lock {
        guard value.mapEntries != nil else { throw fail("nut10", "is not a map") }
        guard let kind = try text(value, "k", field: "nut10.k"), !kind.isEmpty else {
            throw PaymentCodeError(.missingField, field: "nut10.k", "lock has no kind")
        }
        guard let data = try text(value, "d", field: "nut10.d") else {
            throw PaymentCodeError(.missingField, field: "nut10.d", "lock has no data")
        }
        return CashuPaymentRequest.Lock(
            kind: kind, data: data, tags: try tags(value, "t", field: "nut10.t"))
    }

    /// The value under `key`, nil when absent, null or undefined.
    private static func present(_ map: CBOR, _ key: String) -> CBOR? {
        switch map[.text(key)] {
        case nil, .null?, .undefined?: nil
        case let value?: value
        }
    }

    private static func text(
        _ map: CBOR, _ key: String, field: String? = nil
    )
        throws(PaymentCodeError) -> String?
    {
        guard let value = present(map, key) else { return nil }
        guard let text = value.textValue else { throw fail(field ?? key, "is not a text string") }
        return text
    }

    private static func strings(
        _ value: CBOR, field: String, nonEmpty: Bool
    )
        throws(PaymentCodeError) -> [String]
    {
        guard let list = value.arrayValue else { throw fail(field, "is not a list") }
        var out: [String] = []
        for (index, item) in list.enumerated() {
            guard let text = item.textValue, !(nonEmpty && text.isEmpty) else {
                throw fail("\(field)[\(index)]", "is not a non-empty text string")
            }
            out.append(text)
        }
        return out
    }

    /// `[[tag, value, …], …]`: every tuple a list of text with its tag name first.
    private static func tags(
        _ map: CBOR, _ key: String, field: String
    ) throws(PaymentCodeError)
        -> [[String]]?
    {
        guard let value = present(map, key) else { return nil }
        guard let list = value.arrayValue else { throw fail(field, "tags are not a list") }
        var tags: [[String]] = []
        for (index, item) in list.enumerated() {
            let tuple = try strings(item, field: "\(field)[\(index)]", nonEmpty: false)
            guard let name = tuple.first, !name.isEmpty else {
                throw fail("\(field)[\(index)]", "tag has no name")
            }
            tags.append(tuple)
        }
        return tags
    }

    private static func fail(_ field: String, _ message: String) -> PaymentCodeError {
        PaymentCodeError(.malformedField, field: field, message)
    }
}
