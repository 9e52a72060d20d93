import Codecs
import TenderTestSupport
import Testing

@Suite struct CBOREncodingTests {
    // RFC 8949 §3 / §4.2.1: the argument goes in the initial byte up to 23, then in the
    // shortest of 1, 2, 4 or 8 following bytes.
    @Test func headsAreShortest() {
        let cases: [(UInt64, String)] = [
            (23, "17"), (24, "1818"), (255, "18ff"), (256, "190100"), (65535, "19ffff"),
            (65536, "1a00010000"), (4_294_967_295, "1affffffff"),
            (4_294_967_296, "1b0000000100000000"), (.max, "1bffffffffffffffff"),
        ]
        for (value, expected) in cases {
            #expect(hex(CBOR.unsigned(value).encoded()) == expected)
        }
        #expect(hex(CBOR.negative(23).encoded()) == "37")
        #expect(hex(CBOR.negative(24).encoded()) == "3818")
        #expect(hex(CBOR.bytes([UInt8](repeating: 0, count: 24)).encoded().prefix(2)) == "5818")
        #expect(hex(CBOR.text(String(repeating: "a", count: 256)).encoded().prefix(3)) == "790100")
        #expect(hex(CBOR.array(Array(repeating: .null, count: 24)).encoded().prefix(2)) == "9818")
        #expect(hex(CBOR.tagged(65536, .null).encoded()) == "da00010000f6")
    }

    // The example list of correctly sorted keys in RFC 8949 §4.2.1, given here shuffled.
    @Test func sortsMapKeysBytewiseAsInRFC8949() {
        let keys: [CBOR] = [
            u(10), u(100), .negative(0), t("z"), t("aa"), array(u(100)), array(.negative(0)),
            .boolean(false),
        ]
        var random = SeededGenerator(seed: 4_2_1)
        for _ in 0..<20 {
            let shuffled = keys.shuffled(using: &random)
            let encoded = CBOR.map(shuffled.map { CBOR.Entry($0, .null) }).encoded()
            #expect(
                hex(encoded) == "a8" + "0af6" + "1864f6" + "20f6" + "617af6" + "626161f6"
                    + "811864f6" + "8120f6" + "f4f6")
        }
    }

    @Test func simpleValuesTwentyToTwentyThreeAreTheNamedOnes() {
        #expect(CBOR.simple(20).encoded() == CBOR.boolean(false).encoded())
        #expect(CBOR.simple(21).encoded() == CBOR.boolean(true).encoded())
        #expect(CBOR.simple(22).encoded() == CBOR.null.encoded())
        #expect(CBOR.simple(23).encoded() == CBOR.undefined.encoded())
        #expect(hex(CBOR.simple(0).encoded()) == "e0")
        #expect(hex(CBOR.simple(19).encoded()) == "f3")
        #expect(hex(CBOR.simple(32).encoded()) == "f820")
    }

    // RFC 8949 §4.2.2: the shortest of half/single/double that preserves the value.
    @Test func floatsTakeTheShortestExactWidth() throws {
        let cases: [(Double, String)] = [
            (0.5, "f93800"),
            (65504, "f97bff"),  // largest half
            (65505, "fa477fe100"),  // needs single
            (0x1p-24, "f90001"),  // smallest half subnormal
            (0x1p-25, "fa33000000"),  // below half's range: single
            (0x1.8p-24, "fa33c00000"),  // between half subnormals: single
            (0x1p-14, "f90400"),  // smallest half normal
            (0x1.ff8p-15, "f903ff"),  // largest half subnormal
            (0x1.ffcp-15, "fa387fe000"),  // one bit finer: single
            (Double(Float.leastNonzeroMagnitude), "fa00000001"),
            (Double(Float.greatestFiniteMagnitude), "fa7f7fffff"),
            (0.1, "fb3fb999999999999a"),
            (Double.leastNonzeroMagnitude, "fb0000000000000001"),
            (-Double.greatestFiniteMagnitude, "fbffefffffffffffff"),
        ]
        for (value, expected) in cases {
            #expect(hex(CBOR.float(value).encoded()) == expected, "\(value)")
            #expect(try CBOR.decode(h(expected)) == .float(value))
        }
        // Every NaN, whatever its payload or sign, is written as f97e00.
        let payloadNaN = Double(bitPattern: 0xfff8_0000_dead_beef)
        #expect(hex(CBOR.float(payloadNaN).encoded()) == "f97e00")
        #expect(hex(CBOR.float(.signalingNaN).encoded()) == "f97e00")
    }

    @Test func everyHalfRoundTrips() throws {
        for bits in UInt16.min...UInt16.max {
            let encoded: [UInt8] = [0xf9, UInt8(bits >> 8), UInt8(bits & 0xff)]
            let decoded = try CBOR.decode(encoded, options: .lenient)
            guard case .float(let value) = decoded else {
                Issue.record("f9 \(bits) decoded as \(decoded)")
                continue
            }
            let isNaN = bits & 0x7c00 == 0x7c00 && bits & 0x3ff != 0
            #expect(value.isNaN == isNaN)
            if !isNaN {
                #expect(decoded.encoded() == encoded, "half \(bits)")
                // Only the canonical NaN is deterministic; every other half is.
                #expect(try CBOR.decode(encoded) == decoded)
            }
        }
    }

    @Test func textIsWrittenAsGivenUTF8() {
        // No Unicode normalization: precomposed and decomposed "é" are different items.
        #expect(hex(t("\u{e9}").encoded()) == "62c3a9")
        #expect(hex(t("e\u{301}").encoded()) == "6365cc81")
    }
}
