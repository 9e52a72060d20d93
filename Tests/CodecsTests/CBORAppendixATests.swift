import Codecs
import Testing

/// Every example of RFC 8949 Appendix A (cross-checked against the cbor/test-vectors
/// repository's appendix_a.json), as (value, encoding, deterministic re-encoding when the
/// example itself is not deterministic).
struct AppendixAExample: CustomTestStringConvertible, Sendable {
    let value: CBOR
    let hex: String
    let deterministicHex: String?

    init(_ value: CBOR, _ hex: String, deterministic: String? = nil) {
        self.value = value
        self.hex = hex
        self.deterministicHex = deterministic
    }

    var testDescription: String { hex }
}

private let oneToTwentyFive = CBOR.array((1...25).map { .unsigned($0) })
private let nested = array(u(1), array(u(2), u(3)), array(u(4), u(5)))

let appendixA: [AppendixAExample] = [
    .init(u(0), "00"),
    .init(u(1), "01"),
    .init(u(10), "0a"),
    .init(u(23), "17"),
    .init(u(24), "1818"),
    .init(u(25), "1819"),
    .init(u(100), "1864"),
    .init(u(1000), "1903e8"),
    .init(u(1_000_000), "1a000f4240"),
    .init(u(1_000_000_000_000), "1b000000e8d4a51000"),
    .init(u(18_446_744_073_709_551_615), "1bffffffffffffffff"),
    .init(.tagged(2, .bytes(h("010000000000000000"))), "c249010000000000000000"),
    .init(.negative(18_446_744_073_709_551_615), "3bffffffffffffffff"),
    .init(.tagged(3, .bytes(h("010000000000000000"))), "c349010000000000000000"),
    .init(.negative(0), "20"),
    .init(.negative(9), "29"),
    .init(.negative(99), "3863"),
    .init(.negative(999), "3903e7"),
    .init(.float(0.0), "f90000"),
    .init(.float(-0.0), "f98000"),
    .init(.float(1.0), "f93c00"),
    .init(.float(1.1), "fb3ff199999999999a"),
    .init(.float(1.5), "f93e00"),
    .init(.float(65504.0), "f97bff"),
    .init(.float(100000.0), "fa47c35000"),
    .init(.float(3.4028234663852886e+38), "fa7f7fffff"),
    .init(.float(1.0e+300), "fb7e37e43c8800759c"),
    .init(.float(5.960464477539063e-8), "f90001"),
    .init(.float(0.00006103515625), "f90400"),
    .init(.float(-4.0), "f9c400"),
    .init(.float(-4.1), "fbc010666666666666"),
    .init(.float(.infinity), "f97c00"),
    .init(.float(.nan), "f97e00"),
    .init(.float(-.infinity), "f9fc00"),
    .init(.float(.infinity), "fa7f800000", deterministic: "f97c00"),
    .init(.float(.nan), "fa7fc00000", deterministic: "f97e00"),
    .init(.float(-.infinity), "faff800000", deterministic: "f9fc00"),
    .init(.float(.infinity), "fb7ff0000000000000", deterministic: "f97c00"),
    .init(.float(.nan), "fb7ff8000000000000", deterministic: "f97e00"),
    .init(.float(-.infinity), "fbfff0000000000000", deterministic: "f9fc00"),
    .init(.boolean(false), "f4"),
    .init(.boolean(true), "f5"),
    .init(.null, "f6"),
    .init(.undefined, "f7"),
    .init(.simple(16), "f0"),
    .init(.simple(255), "f8ff"),
    .init(.tagged(0, t("2013-03-21T20:04:00Z")), "c074323031332d30332d32315432303a30343a30305a"),
    .init(.tagged(1, u(1_363_896_240)), "c11a514b67b0"),
    .init(.tagged(1, .float(1_363_896_240.5)), "c1fb41d452d9ec200000"),
    .init(.tagged(23, .bytes(h("01020304"))), "d74401020304"),
    .init(.tagged(24, .bytes(h("6449455446"))), "d818456449455446"),
    .init(
        .tagged(32, t("http://www.example.com")),
        "d82076687474703a2f2f7777772e6578616d706c652e636f6d"),
    .init(.bytes([]), "40"),
    .init(.bytes(h("01020304")), "4401020304"),
    .init(t(""), "60"),
    .init(t("a"), "6161"),
    .init(t("IETF"), "6449455446"),
    .init(t("\"\\"), "62225c"),
    .init(t("\u{00fc}"), "62c3bc"),
    .init(t("\u{6c34}"), "63e6b0b4"),
    .init(t("\u{10151}"), "64f0908591"),
    .init(.array([]), "80"),
    .init(array(u(1), u(2), u(3)), "83010203"),
    .init(nested, "8301820203820405"),
    .init(oneToTwentyFive, "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
    .init(.map([]), "a0"),
    .init(map((u(1), u(2)), (u(3), u(4))), "a201020304"),
    .init(map((t("a"), u(1)), (t("b"), array(u(2), u(3)))), "a26161016162820203"),
    .init(array(t("a"), map((t("b"), t("c")))), "826161a161626163"),
    .init(
        map(
            (t("a"), t("A")), (t("b"), t("B")), (t("c"), t("C")), (t("d"), t("D")),
            (t("e"), t("E"))),
        "a56161614161626142616361436164614461656145"),
    // Indefinite-length items: decodable leniently, re-encoded with definite lengths.
    .init(.bytes(h("0102030405")), "5f42010243030405ff", deterministic: "450102030405"),
    .init(t("streaming"), "7f657374726561646d696e67ff", deterministic: "6973747265616d696e67"),
    .init(.array([]), "9fff", deterministic: "80"),
    .init(nested, "9f018202039f0405ffff", deterministic: "8301820203820405"),
    .init(nested, "9f01820203820405ff", deterministic: "8301820203820405"),
    .init(nested, "83018202039f0405ff", deterministic: "8301820203820405"),
    .init(nested, "83019f0203ff820405", deterministic: "8301820203820405"),
    .init(
        oneToTwentyFive, "9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff",
        deterministic: "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
    .init(
        map((t("a"), u(1)), (t("b"), array(u(2), u(3)))), "bf61610161629f0203ffff",
        deterministic: "a26161016162820203"),
    .init(
        array(t("a"), map((t("b"), t("c")))), "826161bf61626163ff",
        deterministic: "826161a161626163"),
    // Decoding keeps the order given; encoding sorts "Amt" (63 41…) before "Fun" (63 46…).
    .init(
        map((t("Fun"), .boolean(true)), (t("Amt"), .negative(1))), "bf6346756ef563416d7421ff",
        deterministic: "a263416d74216346756ef5"),
]

@Suite struct CBORAppendixATests {
    @Test func coversTheWholeAppendix() {
        // appendix_a.json (from RFC 7049) has 82 entries; RFC 8949 dropped simple(24), f818,
        // which is now not well-formed (see CBORErrorTests).
        #expect(appendixA.count == 81)
    }

    @Test(arguments: appendixA)
    func encodesDeterministically(_ example: AppendixAExample) {
        #expect(hex(example.value.encoded()) == (example.deterministicHex ?? example.hex))
    }

    @Test(arguments: appendixA)
    func decodesLeniently(_ example: AppendixAExample) throws {
        let decoded = try CBOR.decode(h(example.hex), options: .lenient)
        #expect(decoded == example.value)
        #expect(hex(decoded.encoded()) == (example.deterministicHex ?? example.hex))
    }

    @Test(arguments: appendixA)
    func deterministicModeAcceptsOnlyDeterministicExamples(_ example: AppendixAExample) throws {
        if example.deterministicHex == nil {
            #expect(try CBOR.decode(h(example.hex)) == example.value)
        } else {
            #expect(decodeError(h(example.hex)) != nil)
            // Decoding keeps the (sorted) order of the input.
            #expect(try CBOR.decode(h(example.deterministicHex!)) == sortedMaps(example.value))
        }
    }
}
