import Tender
import TenderTestSupport
import Testing

@testable import PaymentCodes

@Suite struct TenderURITests {
    let world = World()

    func request(
        amount: Amount = 1_500_000, asset: Address = .zero, memo: String = "",
        sessionKey: [UInt8]? = [UInt8](repeating: 0xAB, count: 32)
    ) -> PaymentRequest {
        try! PaymentRequest(
            id: try! Bytes32([UInt8](0..<32)), payee: world.bob, amount: amount, asset: asset,
            memo: memo, expiry: world.expiry, sessionKey: sessionKey, domain: world.domain)
    }

    /// The kind and field of a refusal, for compact assertions.
    func refusal(_ text: String) -> (PaymentCodeError.Kind, String)? {
        do {
            _ = try TenderURI.decode(text)
            return nil
        } catch { return (error.kind, error.field) }
    }

    @Test func encodesTheCanonicalForm() {
        let uri = TenderURI.encode(request(memo: "Coffee & cake, 2× ☕"))
        let expected =
            "tender:\(world.bob.checksummed)?amount=1500000&chain=31337"
            + "&vault=0x5FbDB2315678afecb367f032d93F642f64180aa3"
            + "&id=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
            + "&exp=1800086400&k=" + String(repeating: "ab", count: 32)
            + "&memo=Coffee%20%26%20cake%2C%202%C3%97%20%E2%98%95"
        #expect(uri == expected)
        #expect(uri.utf8.allSatisfy { $0 < 0x80 })
    }

    @Test func roundTrips() throws {
        let token = try Address("0x5FbDB2315678afecb367f032d93F642f64180aa3")
        let cases = [
            request(),
            request(sessionKey: nil),
            request(amount: Amount.max, asset: token),
            request(amount: 1, memo: "plain"),
            request(memo: "+&=?#%/ \u{0}\n\"'<>日本語 🙂"),
            request(memo: String(repeating: "é", count: 70)),  // exactly 140 bytes
        ]
        for original in cases {
            let uri = TenderURI.encode(original)
            let decoded = try TenderURI.decode(uri)
            #expect(decoded == original)
            #expect(decoded.memo == original.memo)
            #expect(decoded.sessionKey == original.sessionKey)
            #expect(TenderURI.encode(decoded) == uri)
        }
    }

    @Test func isCompact() {
        let uri = TenderURI.encode(request())
        #expect(uri.utf8.count < 320)
        let minimal = TenderURI.encode(request(sessionKey: nil))
        #expect(minimal.utf8.count < 260)
    }

    @Test func acceptsAnySchemeCaseAnyParameterOrderAndLowercaseAddresses() throws {
        let original = request(memo: "hi")
        let uri = TenderURI.encode(original)
        let upper = "TeNdEr" + uri.dropFirst(6)
        #expect(try TenderURI.decode(upper) == original)

        let (head, query) = (uri.split(separator: "?")[0], uri.split(separator: "?")[1])
        let reversed = head + "?" + query.split(separator: "&").reversed().joined(separator: "&")
        #expect(try TenderURI.decode(String(reversed)) == original)

        let lowered = uri.replacingFirst(
            world.bob.checksummed, with: world.bob.checksummed.lowercased())
        #expect(try TenderURI.decode(lowered) == original)
        // An explicit zero asset means the native coin, as when it is omitted.
        let explicit = uri + "&asset=0x0000000000000000000000000000000000000000"
        #expect(try TenderURI.decode(explicit) == original)
    }

    /// Every field broken once: each refusal names the field.
    @Test func refusesEveryBrokenField() {
        let uri = TenderURI.encode(request(memo: "tea"))
        let address = world.bob.checksummed
        let vault = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
        let id = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
        let key = String(repeating: "ab", count: 32)
        func replacing(_ old: String, _ new: String) -> String {
            uri.replacingFirst(old, with: new)
        }
        let badChecksum =
            String(address.prefix(2)) + String(address.dropFirst(2)).swapFirstLetterCase()

        let cases: [(String, PaymentCodeError.Kind, String)] = [
            ("bitcoin" + uri.dropFirst(6), .wrongScheme, "scheme"),
            (String(uri.prefix { $0 != "?" }), .missingField, "chain"),
            ("tender:", .missingField, "address"),
            (replacing(address, "0x1234"), .malformedField, "address"),
            (replacing(address, badChecksum), .badChecksum, "address"),
            (replacing("amount=1500000", "amount=0"), .malformedField, "amount"),
            (replacing("amount=1500000", "amount=01500000"), .malformedField, "amount"),
            (replacing("amount=1500000", "amount=1.5"), .malformedField, "amount"),
            (replacing("amount=1500000", "amount=-1"), .malformedField, "amount"),
            (
                replacing("amount=1500000", "amount=340282366920938463463374607431768211456"),
                .malformedField, "amount"
            ),
            (replacing("amount=1500000&", ""), .missingField, "amount"),
            (uri + "&asset=0xnothex", .malformedField, "asset"),
            (replacing("chain=31337", "chain=18446744073709551616"), .malformedField, "chain"),
            (replacing("chain=31337", "chain=x"), .malformedField, "chain"),
            (replacing("&chain=31337", ""), .missingField, "chain"),
            (
                replacing(vault, "0x5fbdb2315678afecb367f032d93f642f64180aa"), .malformedField,
                "vault"
            ),
            (replacing("&vault=\(vault)", ""), .missingField, "vault"),
            (replacing(id, String(id.dropLast(2))), .malformedField, "id"),
            (replacing(id, "0x" + id.dropFirst(2)), .malformedField, "id"),
            (replacing(id, String(id.dropLast()) + "g"), .malformedField, "id"),
            (replacing("&id=\(id)", ""), .missingField, "id"),
            (replacing("exp=1800086400", "exp=soon"), .malformedField, "exp"),
            (replacing("&exp=1800086400", ""), .missingField, "exp"),
            (replacing(key, String(key.dropLast(2))), .malformedField, "k"),
            (replacing(key, String(key.dropLast()) + "z"), .malformedField, "k"),
            (replacing("memo=tea", "memo=t%2"), .malformedField, "memo"),
            (replacing("memo=tea", "memo=t%ZZ"), .malformedField, "memo"),
            (replacing("memo=tea", "memo=a+b"), .malformedField, "memo"),
            (replacing("memo=tea", "memo=a b"), .malformedField, "memo"),
            (replacing("memo=tea", "memo=%FF"), .malformedField, "memo"),
            (
                replacing("memo=tea", "memo=" + String(repeating: "x", count: 141)), .tooLarge,
                "memo"
            ),
            (uri + "&v=2", .unknownField, "v"),
            (uri + "&amount=5", .duplicateField, "amount"),
            (uri + "&", .malformedField, "query"),
            (uri + "&k", .malformedField, "k"),
            (uri + "&=1", .malformedField, "query"),
        ]
        for (text, kind, field) in cases {
            let result = refusal(text)
            #expect(
                result?.0 == kind && result?.1 == field, "\(text) → \(String(describing: result))")
        }
    }

    @Test func errorsReadWell() {
        do {
            _ = try TenderURI.decode(
                "tender:0x0000000000000000000000000000000000000001?amount=1&x=2")
            Issue.record("accepted an unknown parameter")
        } catch {
            #expect(error.code == "unknown-field")
            #expect(
                error.description.hasPrefix("x: is not a parameter of this tender: URI version"))
        }
    }
}

extension String {
    func replacingFirst(_ old: String, with new: String) -> String {
        replacing(old, with: new, maxReplacements: 1)
    }

    /// Swaps the case of the first letter (to break an EIP-55 checksum).
    func swapFirstLetterCase() -> String {
        guard let index = firstIndex(where: { $0.isLetter }) else { return self }
        let letter = self[index]
        var copy = self
        copy.replaceSubrange(
            index...index, with: letter.isUppercase ? letter.lowercased() : letter.uppercased())
        return copy
    }
}

@Suite struct TenderURIPropertyTests {
    @Test func randomRequestsRoundTrip() throws {
        var random = SeededGenerator(seed: 0x5EED_1234_ABCD_0001)
        let scalars: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0x00...0x1F, 0xA0...0x2FF, 0x3040...0x30FF, 0x1F300...0x1F64F,
        ]
        for _ in 0..<300 {
            var memo = ""
            for _ in 0..<Int.random(in: 0...60, using: &random) {
                let range = scalars.randomElement(using: &random)!
                let scalar = Unicode.Scalar(UInt32.random(in: range, using: &random))!
                guard memo.utf8.count + String(scalar).utf8.count <= 140 else { break }
                memo.unicodeScalars.append(scalar)
            }
            let amount =
                Amount(UInt64.random(in: 1...UInt64.max, using: &random))
                << Int.random(in: 0...63, using: &random)
            let request = try PaymentRequest(
                id: .random(using: &random),
                payee: try Address(
                    bytes: (0..<20).map { _ in UInt8.random(in: 0...255, using: &random) }),
                amount: amount,
                asset: Bool.random(using: &random)
                    ? .zero
                    : try Address(
                        bytes: (0..<20).map { _ in UInt8.random(in: 0...255, using: &random) }),
                memo: memo, expiry: UInt64.random(in: 0...UInt64.max, using: &random),
                sessionKey: Bool.random(using: &random)
                    ? (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) } : nil,
                domain: Domain(
                    chainID: UInt64.random(in: 0...UInt64.max, using: &random),
                    vault: try Address(
                        bytes: (0..<20).map { _ in UInt8.random(in: 0...255, using: &random) })))
            let uri = TenderURI.encode(request)
            let decoded = try TenderURI.decode(uri)
            #expect(
                decoded == request && decoded.memo == request.memo
                    && decoded.sessionKey == request.sessionKey)
            #expect(
                ScannedCode.recognize(Array(uri.uppercasedScheme().utf8)) == .tenderRequest(request)
            )
        }
    }

    @Test func decimalFormattingAndDates() {
        #expect(ExactDecimal.format(250_000, scale: 8) == "0.0025")
        #expect(ExactDecimal.format(5_000_000_000, scale: 8) == "50")
        #expect(ExactDecimal.format(1, scale: 18) == "0.000000000000000001")
        #expect(ExactDecimal.format(0, scale: 3) == "0")
        #expect(ExactDecimal.grouped(1_234_567) == "1,234,567")
        #expect(ExactDecimal.grouped(999) == "999")
        #expect(UTCTime.format(0) == "1970-01-01 00:00:00 UTC")
        #expect(UTCTime.format(951_782_400) == "2000-02-29 00:00:00 UTC")
        #expect(UTCTime.format(4_102_444_799) == "2099-12-31 23:59:59 UTC")
    }
}

extension String {
    fileprivate func uppercasedScheme() -> String { "TENDER" + dropFirst(6) }
}
