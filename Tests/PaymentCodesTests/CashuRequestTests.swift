import Codecs
import Testing

@testable import PaymentCodes

/// NUT-18 (`creqA`) and NUT-26 (`creqb1`) payment requests: every vector of the spec's test
/// files (CashuRequestVectors.swift) reads back as exactly its JSON, and damaged ones are
/// refused naming the field.
@Suite struct CashuRequestTests {
    @Test func everyNUT18VectorDecodesToItsJSON() throws {
        for (title, json, encoded) in NUT18Vectors.valid {
            let request = try CashuPaymentRequest.decode(encoded)
            #expect(request.encoding == .creqA, "\(title)")
            #expect(
                canonical(nut18JSON(request))
                    == canonical(try Codecs.JSON.parse(Array(json.utf8))), "\(title)")
        }
    }

    /// The test file's "Basic Payment Request" prints JSON its encoding does not carry (the
    /// encoding is 18.md's example): the decoder reads what is encoded, not what is printed.
    @Test func theMismatchedBasicVectorReadsAsWhatItEncodes() throws {
        let request = try CashuPaymentRequest.decode(NUT18Vectors.basicAsPrinted.encoded)
        #expect(request.mints == ["https://nofees.testnut.cashu.space"])
        #expect(
            canonical(nut18JSON(request))
                != canonical(
                    try Codecs.JSON.parse(Array(NUT18Vectors.basicAsPrinted.json.utf8))))
    }

    @Test func everyNUT26VectorDecodesToItsJSON() throws {
        for (title, json, encoded) in NUT26Vectors.valid {
            let request = try CashuPaymentRequest.decode(encoded)
            #expect(request.encoding == .creqB, "\(title)")
            #expect(
                canonical(nut18JSON(request))
                    == canonical(try Codecs.JSON.parse(Array(json.utf8))), "\(title)")
            // Decoders MUST accept lower case too (NUT-26), and `cashu:` as for tokens.
            #expect(try CashuPaymentRequest.decode(encoded.lowercased()) == request, "\(title)")
            #expect(try CashuPaymentRequest.decode("cashu:" + encoded) == request, "\(title)")
        }
    }

    @Test func recognisedAndExplained() throws {
        let locked = try #require(NUT18Vectors.valid.first { $0.title.contains("NUT-10") })
        let code = ScannedCode.recognize(Array(locked.encoded.utf8))
        guard case .cashuRequest(let request) = code else {
            Issue.record("not recognised: \(code.explanation)")
            return
        }
        #expect(request.lock?.kind == "P2PK")
        #expect(!code.isPayableByTender)
        #expect(code.kind == "cashu-request")
        let text = code.explanation
        #expect(
            text.hasPrefix(
                "Cashu payment request (NUT-18, creqA): pay 500 sat in ecash from mint https://mint.example.com."
            ))
        #expect(
            text.contains(
                "The ecash must be locked to key 02c3b5bb27e361457c92d93d78dd73d3d53732110b2cfe8b50fbc0abc615e9c331 (NUT-11 P2PK), with timeout=3600."
            ), "\(text)")
        #expect(text.contains("No transport given"))
        #expect(
            text.hasSuffix("Tender cannot pay it: it asks for Cashu ecash; use a Cashu wallet."))

        let usd = try #require(NUT26Vectors.valid.first { $0.title.contains("usd") })
        #expect(ScannedCode.recognize(usd.encoded).explanation.contains("pay 5.00 usd in ecash"))
        let transports = try #require(
            NUT26Vectors.valid.first { $0.title == "Multiple Transports" })
        let several = ScannedCode.recognize(transports.encoded).explanation
        #expect(
            several.contains(
                "Send it by Nostr to nprofile1qqsrhuxx8l9ex335q7he0f09aej04zpazpl0ne2cgukyawd24mayt8g2lcy6q (NIP-17); or by HTTP POST to https://api1.example.com/payment; or by HTTP POST to https://api2.example.com/payment with priority=backup."
            ), "\(several)")
        let msat = try #require(NUT26Vectors.valid.first { $0.title.contains("msat") })
        #expect(ScannedCode.recognize(msat.encoded).explanation.contains("pay 1,000 msat (1 sat)"))
        let custom = try #require(NUT26Vectors.valid.first { $0.title == "Custom Currency Unit" })
        #expect(
            ScannedCode.recognize(custom.encoded).explanation.contains(
                "pay 100 (smallest unit of btc)") == false)
        #expect(ScannedCode.recognize(custom.encoded).explanation.contains("pay 0.00000100 btc"))
    }

    @Test func malformedCreqAIsRefusedByField() {
        func creqA(_ entries: [(String, CBOR)]) -> String {
            "creqA"
                + Base64URL.encode(
                    CBOR.map(entries.map { CBOR.Entry(.text($0.0), $0.1) }).encoded())
        }
        let mint: (String, CBOR) = ("m", .array([.text("https://m.example")]))
        let cases: [(String, PaymentCodeError.Kind, String)] = [
            ("creqA!!!!", .malformedField, "request"),
            ("creqA" + Base64URL.encode(CBOR.array([]).encoded()), .malformedField, "request"),
            (creqA([("i", .unsigned(5))]), .malformedField, "i"),
            (creqA([("a", .text("10")), ("u", .text("sat"))]), .malformedField, "a"),
            (creqA([("a", .unsigned(10)), mint]), .missingField, "u"),
            (creqA([("s", .unsigned(1))]), .malformedField, "s"),
            (creqA([("m", .array([.unsigned(1)]))]), .malformedField, "m[0]"),
            (
                creqA([("t", .array([.map([CBOR.Entry(.text("t"), .text("post"))])]))]),
                .missingField, "t[0].a"
            ),
            (
                creqA([
                    (
                        "t",
                        .array([
                            .map([
                                CBOR.Entry(.text("t"), .text("post")),
                                CBOR.Entry(.text("a"), .text("https://x")),
                                CBOR.Entry(.text("g"), .array([.array([.unsigned(1)])])),
                            ])
                        ])
                    )
                ]), .malformedField, "t[0].g[0][0]"
            ),
            (
                creqA([("nut10", .map([CBOR.Entry(.text("k"), .text("P2PK"))]))]), .missingField,
                "nut10.d"
            ),
        ]
        for (text, kind, field) in cases {
            expectRefused(text, kind, field)
        }
        // A key a later NUT adds is ignored; null reads as absent.
        #expect(throws: Never.self) {
            try CashuPaymentRequest.decode(creqA([mint, ("zz", .unsigned(1)), ("d", .null)]))
        }
    }

    @Test func malformedCreqBIsRefusedByField() throws {
        func record(_ type: UInt8, _ value: [UInt8]) -> [UInt8] {
            [type, UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
        }
        func creqB(_ bytes: [UInt8], variant: Bech32.Variant = .bech32m) -> String {
            Bech32.encode(hrp: "creqb", data: Bech32.values(from: bytes), variant: variant)
        }
        let unit = record(0x03, [0])
        let amount = record(0x02, [0, 0, 0, 0, 0, 0, 0, 10])
        let post = record(0x01, [1])
        let target = record(0x02, Array("https://x".utf8))
        let cases: [(String, PaymentCodeError.Kind, String)] = [
            (creqB(record(0x02, [0, 0, 0, 10]) + unit), .malformedField, "amount"),
            (creqB(amount), .missingField, "unit"),
            (creqB(record(0x04, [2])), .malformedField, "single_use"),
            (
                creqB(record(0x01, Array("a".utf8)) + record(0x01, Array("b".utf8))),
                .duplicateField, "id"
            ),
            (creqB(record(0x05, [0xFF, 0xFE])), .malformedField, "mint"),
            (creqB([0x01, 0x00, 0x09, 0x61]), .malformedField, "request"),
            (creqB(record(0x07, post)), .missingField, "transport[0].target"),
            (creqB(record(0x07, record(0x01, [7]) + target)), .unsupported, "transport[0].kind"),
            (
                creqB(
                    record(0x07, record(0x01, [0]) + record(0x02, [UInt8](repeating: 1, count: 31)))
                ), .malformedField, "transport[0].target"
            ),
            (
                creqB(record(0x07, post + target + record(0x03, [5, 0x61]))), .malformedField,
                "transport[0].tag[0]"
            ),
            (creqB(record(0x08, record(0x01, [0]))), .missingField, "nut10.data"),
            (creqB(amount + unit, variant: .bech32), .badChecksum, "checksum"),
        ]
        for (text, kind, field) in cases {
            expectRefused(text, kind, field)
        }
        // One character changed: the checksum catches it.
        let good = creqB(amount + unit)
        var damaged = Array(good)
        damaged[10] = damaged[10] == "q" ? "p" : "q"
        expectRefused(String(damaged), .badChecksum, "checksum")
        // Unknown tags are skipped (NUT-26: MUST be ignored), and a later lock kind kept.
        let request = try CashuPaymentRequest.decode(
            creqB(
                amount + unit + record(0x7F, [1, 2, 3])
                    + record(0x08, record(0x01, [9]) + record(0x02, [0x61]))))
        #expect(request.amount == 10 && request.unit == "sat")
        #expect(request.lock == CashuPaymentRequest.Lock(kind: "kind 9", data: "a", tags: nil))
    }

    private func expectRefused(
        _ text: String, _ kind: PaymentCodeError.Kind, _ field: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let request = try CashuPaymentRequest.decode(text)
            Issue.record("accepted \(text): \(request)", sourceLocation: sourceLocation)
        } catch {
            #expect(
                error.kind == kind && error.field == field, "\(text): \(error)",
                sourceLocation: sourceLocation)
        }
        let scanned = ScannedCode.recognize(text)
        #expect(scanned == .unknown(text), sourceLocation: sourceLocation)
        #expect(
            scanned.explanation.hasPrefix(
                "Looks like a Cashu payment request but is not valid: \(field):"),
            "\(scanned.explanation)", sourceLocation: sourceLocation)
    }
}

/// A request as NUT-18's JSON object, absent fields left out.
func nut18JSON(_ request: CashuPaymentRequest) -> Codecs.JSON {
    func tags(_ tags: [[String]]) -> Codecs.JSON {
        .array(tags.map { .array($0.map(Codecs.JSON.string)) })
    }
    var entries: [(key: String, value: Codecs.JSON)] = []
    if let id = request.id { entries.append(("i", .string(id))) }
    if let amount = request.amount { entries.append(("a", .number(String(amount)))) }
    if let unit = request.unit { entries.append(("u", .string(unit))) }
    if let single = request.singleUse { entries.append(("s", .bool(single))) }
    if let mints = request.mints {
        entries.append(("m", .array(mints.map(Codecs.JSON.string))))
    }
    if let text = request.requestDescription { entries.append(("d", .string(text))) }
    if let transports = request.transports {
        entries.append(
            (
                "t",
                .array(
                    transports.map { transport in
                        var fields: [(key: String, value: Codecs.JSON)] = [
                            ("t", .string(transport.type)), ("a", .string(transport.target)),
                        ]
                        if let g = transport.tags { fields.append(("g", tags(g))) }
                        return .object(fields)
                    })
            ))
    }
    if let lock = request.lock {
        var fields: [(key: String, value: Codecs.JSON)] = [
            ("k", .string(lock.kind)), ("d", .string(lock.data)),
        ]
        if let t = lock.tags { fields.append(("t", tags(t))) }
        entries.append(("nut10", .object(fields)))
    }
    return .object(entries)
}

/// JSON as text with object keys sorted, for comparing values whatever their key order.
func canonical(_ json: Codecs.JSON) -> String {
    switch json {
    case .null: "null"
    case .bool(let value): value ? "true" : "false"
    case .number(let text): text
    case .string(let text): "\"\(text)\""
    case .array(let items): "[" + items.map(canonical).joined(separator: ",") + "]"
    case .object(let entries):
        "{"
            + entries.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\(canonical($0.value))" }
            .joined(separator: ",") + "}"
    }
}

/// Tender writes NUT-18 requests that read back as made: each vector of the spec, read,
/// written and read again, is the same request (the vectors order their keys as they like and
/// pad their base64; Tender writes deterministic CBOR, unpadded, as nutshell does).
@Suite struct CashuRequestWritingTests {
    @Test func everyNUT18VectorWrittenAgainReadsTheSame() throws {
        for (title, _, encoded) in NUT18Vectors.valid {
            let request = try CashuPaymentRequest.decode(encoded)
            #expect(try CashuPaymentRequest.decode(request.encodedA) == request, "\(title)")
            #expect(!request.encodedA.hasSuffix("="), "\(title)")
        }
    }

    @Test func aStallsRequestReadsBackAsMade() throws {
        let key = "02" + String(repeating: "ab", count: 32)
        let made = CashuPaymentRequest(
            id: "sale-7", amount: 250, unit: "usd", mints: ["https://mint.example.com"],
            description: "two teas", lockKey: key)
        #expect(made.encodedA.hasPrefix("creqA"))
        let read = try CashuPaymentRequest.decode(made.encodedA)
        #expect(read == made)
        #expect(read.lock?.kind == "P2PK" && read.lock?.data == key)
        #expect(read.transports == nil)  // in-band: the payer shows the token back
    }
}
