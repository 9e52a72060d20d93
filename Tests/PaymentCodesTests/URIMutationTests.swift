import Codecs
import Foundation
import Tender
import TenderTestSupport
import Testing

@testable import PaymentCodes

/// The `tender:` URI is not signed (the payer sees payee and amount before paying), so a
/// damaged code may read as another request. This sweep mutates a canonical request with every
/// parameter, and a static payee code, one byte at a time (each bit flip, substitutions by a
/// few classes of characters, deletions, truncations): each result either is refused with a
/// `PaymentCodeError` naming the field, or decodes to a code that re-encodes canonically,
/// decodes again to the same, and is shown to the payer field by field. A changed letter case
/// in a checksummed address is always refused (EIP-55). Nothing crashes.
@Suite(.serialized) struct URIMutationTests {
    let world = World()
    static let token = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"

    var canonicalRequest: PaymentRequest {
        try! PaymentRequest(
            id: try! Bytes32((0..<32).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }),
            payee: world.bob,
            amount: 1_500_000, asset: try! Address(Self.token), memo: "Tea & cake, 2× ☕",
            expiry: world.expiry,
            sessionKey: (0..<32).map { UInt8(truncatingIfNeeded: 0xF0 - $0 * 5) },
            domain: world.domain)
    }

    var payeeCode: PayeeCode {
        try! PayeeCode(
            payee: world.bob, asset: try! Address(Self.token), domain: world.domain,
            name: "Café Nord")
    }

    /// Replacement characters: digits, hex letters of both cases, other letters, the URI's
    /// delimiters, a space, NUL, and two- and three-byte UTF-8.
    static let substitutes: [String] = [
        "0", "7", "a", "F", "g", "Z", "x", "%", "&", "=", "?", "#", "+", " ", "\u{0}", "é", "☕",
    ]

    /// Mutations whose result is the same code, by the field they fall in, and why that is
    /// by design (PROTOCOL §9.1 and RFC 3986).
    static let harmlessByDesign: [String: String] = [
        "scheme": "the scheme is read in any case",
        "address (0x)": "'0X' is read as '0x'",
        "asset (0x)": "'0X' is read as '0x'",
        "vault (0x)": "'0X' is read as '0x'",
        "id": "hex digits are read in either case (the id is not checksummed)",
        "k": "hex digits are read in either case (the key is not checksummed)",
        "memo": "percent-encoding hex digits are read in either case (%e2 = %E2)",
        "name": "percent-encoding hex digits are read in either case (%c3 = %C3)",
    ]

    /// Fields a refusal may name besides an unknown parameter's own name.
    static let knownFields: Set<String> = [
        "scheme", "address", "amount", "asset", "chain", "vault", "id", "exp", "k", "memo", "name",
        "query", "request",
    ]

    @Test func fullRequest() throws {
        let report = sweep(TenderURI.encode(canonicalRequest), original: .request(canonicalRequest))
        #expect(report.refusedCount > 0 && report.changedCount > 0 && report.sameCount > 0)
        try report.write(name: "request")
    }

    @Test func staticPayeeCode() throws {
        let report = sweep(TenderURI.encode(payeeCode), original: .payee(payeeCode))
        #expect(report.refusedCount > 0 && report.changedCount > 0 && report.sameCount > 0)
        try report.write(name: "payee code")
    }

    /// The figures of one sweep.
    struct Report {
        let uri: String
        var tried = 0
        /// Bit flips that are not UTF-8: read by the scanner only, as unknown binary data.
        var notText = 0
        /// One-character changes in a checksummed address refused by its EIP-55 checksum.
        var badChecksums = 0
        var refused: [String: Int] = [:]
        var same: [String: Int] = [:]
        var changed: [String: Int] = [:]
        var refusedCount: Int { refused.values.reduce(0, +) }
        var sameCount: Int { same.values.reduce(0, +) }
        var changedCount: Int { changed.values.reduce(0, +) }

        var markdown: String {
            func list(_ counts: [String: Int]) -> String {
                counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                    .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            }
            let why = same.keys.sorted().compactMap { field in
                URIMutationTests.harmlessByDesign[field].map { "\(field): \($0)" }
            }
            return """
                `\(uri)` (\(uri.utf8.count) bytes)

                | mutations | refused, naming a field | another code, shown in full | the same code | not UTF-8 |
                |---:|---:|---:|---:|---:|
                | \(tried) | \(refusedCount) | \(changedCount) | \(sameCount) | \(notText) |

                - Refused, by the field named: \(list(refused)). Of these, \(badChecksums) are \
                one-character changes in a checksummed address, refused by its EIP-55 checksum.
                - Read as another code, by the field mutated: \(list(changed)).
                - Read as the same code, by the field mutated: \(list(same)). By design: \
                \(why.joined(separator: "; ")).
                - Not UTF-8 (bit 7 set on an ASCII byte): the scanner shows unknown binary data; \
                not payable.

                """
        }

        func write(name: String) throws {
            print("URI mutation sweep, \(name):\n\(markdown)")
            guard let directory = ProcessInfo.processInfo.environment["TENDER_SWEEP_REPORT"]
            else { return }
            let file = URL(fileURLWithPath: directory).appendingPathComponent("uri.md")
            var text = (try? String(contentsOf: file, encoding: .utf8)) ?? "### tender: URIs\n\n"
            text += "#### \(name)\n\n\(markdown)\n"
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
    }

    /// Every mutation of `uri` (the canonical encoding of `original`), checked.
    func sweep(_ uri: String, original: TenderCode) -> Report {
        let bytes = Array(uri.utf8)
        #expect(bytes.allSatisfy { $0 < 0x80 })
        let fields = Self.fields(of: uri)
        var report = Report(uri: uri)
        func check(_ mutated: [UInt8], at offset: Int, _ what: String) {
            report.tried += 1
            guard let text = String(validating: mutated, as: UTF8.self) else {
                report.notText += 1
                let scanned = ScannedCode.recognize(mutated)
                #expect(!scanned.isPayableByTender, "\(what): \(scanned)")
                return
            }
            let field = offset < fields.count ? fields[offset] : "(end)"
            let label = "\(what) (\(field)): \(text)"
            do {
                let decoded = try TenderURI.decodeAny(text)
                expectStable(decoded, label)
                expectShown(decoded, scanning: mutated, label)
                if decoded == original {
                    report.same[field, default: 0] += 1
                    #expect(
                        Self.harmlessByDesign[field] != nil, "same code, not by design: \(label)")
                } else {
                    report.changed[field, default: 0] += 1
                }
            } catch {
                let named =
                    Self.knownFields.contains(error.field)
                    ? error.field : "the parameter as written (\(error.code))"
                report.refused[named, default: 0] += 1
                expectNamed(error, text: text, scanning: mutated, label)
            }
            if expectChecksumHolds(original: bytes, mutated: mutated, at: offset, fields, label) {
                report.badChecksums += 1
            }
        }
        for offset in bytes.indices {
            for bit in 0..<8 {
                var mutated = bytes
                mutated[offset] ^= 1 << UInt8(bit)
                check(mutated, at: offset, "byte \(offset) bit \(bit)")
            }
            for substitute in Self.substitutes where substitute.utf8.first != bytes[offset] {
                var mutated = bytes
                mutated.replaceSubrange(offset...offset, with: substitute.utf8)
                check(mutated, at: offset, "byte \(offset) → \(substitute.debugDescription)")
            }
            var deleted = bytes
            deleted.remove(at: offset)
            check(deleted, at: offset, "byte \(offset) deleted")
            check(Array(bytes.prefix(offset)), at: offset, "truncated to \(offset)")
        }
        return report
    }

    /// decode → encode → decode gives the same code and the same canonical text.
    func expectStable(_ decoded: TenderCode, _ label: String) {
        let canonical = Self.encode(decoded)
        do {
            let again = try TenderURI.decodeAny(canonical)
            #expect(again == decoded, "\(label): re-encoded as \(canonical)")
            #expect(Self.encode(again) == canonical, "\(label)")
        } catch {
            Issue.record("\(label): its canonical form \(canonical) is refused: \(error)")
        }
    }

    /// What the scanner shows the payer holds every field the payer acts on.
    func expectShown(_ decoded: TenderCode, scanning bytes: [UInt8], _ label: String) {
        let scanned = ScannedCode.recognize(bytes)
        let shown = scanned.explanation
        var parts: [String]
        switch decoded {
        case .request(let request):
            #expect(scanned == .tenderRequest(request), "\(label)")
            parts = [
                "pay \(request.amount) base units", "to \(request.payee.checksummed)",
                "on chain \(request.domain.chainID)",
                "(vault \(request.domain.vault.checksummed))", "request \(request.id.hex)",
                "expires at \(UTCTime.format(request.expiry))",
                request.sessionKey.map {
                    "Carries the payee's session key \(Hex.encode($0, prefix: false))"
                } ?? "No session key",
                request.asset == .zero ? "the native coin" : "token \(request.asset.checksummed)",
            ]
            if !request.memo.isEmpty { parts.append("Memo: \"\(request.memo)\"") }
        case .payee(let code):
            #expect(scanned == .tenderPayee(code), "\(label)")
            parts = [
                "Tender payee \(code.payee.checksummed)", "on chain \(code.domain.chainID)",
                "(vault \(code.domain.vault.checksummed))",
                code.asset == .zero ? "the native coin" : "asset \(code.asset.checksummed)",
            ]
            if !code.name.isEmpty { parts.append("\(code.name): ") }
        }
        for part in parts {
            #expect(shown.contains(part), "\(label): '\(part)' not in: \(shown)")
        }
    }

    /// A refusal names a field (a known one, or the unknown parameter as written) and says
    /// what is wrong; the scanner does not offer it as payable and, when it reads as a
    /// `tender:` code, repeats the reason.
    func expectNamed(
        _ error: PaymentCodeError, text: String, scanning bytes: [UInt8], _ label: String
    ) {
        #expect(!error.field.isEmpty && !error.message.isEmpty, "\(label): \(error)")
        #expect(
            Self.knownFields.contains(error.field) || text.contains(error.field),
            "\(label): names '\(error.field)'")
        let trimmed = text.trimmingCharacters(in: .init(charactersIn: " \t\r\n"))
        guard trimmed == text else { return }  // the scanner reads it without the whitespace
        let scanned = ScannedCode.recognize(bytes)
        #expect(!scanned.isPayableByTender, "\(label): \(scanned)")
        if text.lowercased().hasPrefix("tender:") {
            #expect(scanned.explanation.contains(error.description), "\(label)")
        }
    }

    /// A one-byte change inside a checksummed address: the 40 digits as they now read must
    /// either carry a valid EIP-55 checksum (or be all one case) and decode, or be refused as
    /// a bad checksum of that field. True when it is such a refusal.
    func expectChecksumHolds(
        original: [UInt8], mutated: [UInt8], at offset: Int, _ fields: [String], _ label: String
    ) -> Bool {
        guard mutated.count == original.count, offset < fields.count,
            ["address", "asset", "vault"].contains(fields[offset])
        else { return false }
        let field = fields[offset]
        let start = (fields.firstIndex(of: field) ?? 0)
        let digits = String(decoding: mutated[start..<start + 40], as: UTF8.self)
        guard digits.utf8.allSatisfy({ URIText.hexValue($0) != nil }) else { return false }
        let text = String(decoding: mutated, as: UTF8.self)
        let uniform = digits == digits.lowercased() || digits == digits.uppercased()
        let value = try! Address("0x" + digits.lowercased())
        do {
            _ = try TenderURI.decodeAny(text)
            #expect(
                uniform || value.checksummed == "0x" + digits,
                "\(label): a broken EIP-55 checksum in \(field) was accepted")
            return false
        } catch {
            if uniform || value.checksummed == "0x" + digits {
                Issue.record("\(label): a valid \(field) refused: \(error)")
                return false
            }
            #expect(error.kind == .badChecksum && error.field == field, "\(label): \(error)")
            return true
        }
    }

    static func encode(_ code: TenderCode) -> String {
        switch code {
        case .request(let request): TenderURI.encode(request)
        case .payee(let payee): TenderURI.encode(payee)
        }
    }

    /// The field each byte of a canonical URI belongs to: `scheme` (with its colon),
    /// `address`, `query` (`?` and `&`), `KEY (name)` (with its `=`), and each value by its
    /// key; the `0x` of an address value is `KEY (0x)`, its 40 digits `KEY`.
    static func fields(of uri: String) -> [String] {
        let bytes = Array(uri.utf8)
        var fields: [String] = []
        func address(_ name: String) {
            fields += [String](repeating: "\(name) (0x)", count: 2)
            fields += [String](repeating: name, count: 40)
        }
        fields += [String](repeating: "scheme", count: 7)  // "tender:"
        address("address")
        fields.append("query")  // "?"
        let query = bytes[fields.count...].split(separator: UInt8(ascii: "&"))
        for (index, part) in query.enumerated() {
            if index > 0 { fields.append("query") }
            let equals = part.firstIndex(of: UInt8(ascii: "="))!
            let key = String(decoding: part[..<equals], as: UTF8.self)
            fields += [String](repeating: "\(key) (name)", count: equals - part.startIndex + 1)
            if ["asset", "vault"].contains(key) {
                address(key)
            } else {
                fields += [String](repeating: key, count: part.endIndex - equals - 1)
            }
        }
        precondition(fields.count == bytes.count)
        return fields
    }
}
