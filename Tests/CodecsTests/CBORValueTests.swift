import Codecs
import Testing

@Suite struct CBORValueTests {
    @Test func equalityIsThatOfDataItems() {
        #expect(CBOR.float(.nan) == .float(.nan))
        #expect(CBOR.float(.nan) == .float(Double(bitPattern: 0x7ff0_0000_0000_0001)))
        #expect(CBOR.float(0.0) != .float(-0.0))
        #expect(CBOR.float(1.0) != .unsigned(1))
        #expect(t("\u{e9}") != t("e\u{301}"))  // Swift's String == would call them equal
        #expect(t("\u{e9}") == t("\u{e9}"))
        #expect(map((u(1), u(2)), (u(3), u(4))) != map((u(3), u(4)), (u(1), u(2))))
        let set: Set<CBOR> = [.float(.nan), .float(.nan), t("\u{e9}"), t("e\u{301}"), .float(-0.0)]
        #expect(set.count == 4)
    }

    @Test func accessorsReturnNilForOtherCases() {
        let value = map((t("n"), u(7)), (t("b"), .bytes([1])), (u(0), array(t("x"))))
        #expect(value[t("n")]?.unsignedValue == 7)
        #expect(value[t("b")]?.bytesValue == [1])
        #expect(value[u(0)]?.arrayValue?.first?.textValue == "x")
        #expect(value[t("missing")] == nil)
        #expect(value.mapEntries?.count == 3)
        #expect(value.unsignedValue == nil)
        #expect(u(1).bytesValue == nil)
        #expect(u(1).textValue == nil)
        #expect(u(1).arrayValue == nil)
        #expect(u(1).mapEntries == nil)
        #expect(u(1)[u(1)] == nil)
    }

    @Test func roundTripsAssortedValues() throws {
        let values: [CBOR] = [
            u(0), u(.max), .negative(.max), .bytes([]), .bytes(Array(repeating: 0xab, count: 300)),
            t(""), t("Tender \u{1F4B8} \u{6c34}"), .array([]), .map([]),
            map(
                (t("amount"), .tagged(2, .bytes(h("ffffffffffffffffffffffffffffffff")))),
                (t("owner"), .bytes(Array(repeating: 0x11, count: 20)))),
            .tagged(.max, .null), .simple(0), .simple(255), .boolean(true), .undefined,
            .float(-.infinity), .float(.pi), .float(-0.0),
            array(array(array(map((array(u(1)), map((u(2), u(3)))))))),
        ]
        for value in values {
            let encoded = value.encoded()
            #expect(try CBOR.decode(encoded) == sortedMaps(value))
            #expect(try CBOR.decode(encoded, options: .lenient) == sortedMaps(value))
        }
    }
}
