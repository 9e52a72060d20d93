import Codecs
import Testing

@Suite struct JSONTests {
    @Test func readerIsStrict() throws {
        let value = try JSON.parse(
            Array(
                #" {"a": [1, -2.5e3, "x\u00e9\ud83d\ude00\n", true, false, null], "b": {}} "#.utf8))
        guard case .array(let items)? = value["a"] else {
            Issue.record("no array")
            return
        }
        #expect(
            items == [
                .number("1"), .number("-2.5e3"), .string("xé😀\n"), .bool(true), .bool(false), .null,
            ])
        for text in [
            #"{"a":1,}"#, #"[01]"#, #"{"a":1 "b":2}"#, #""\ud800""#, #"[1] 2"#, "\"a\u{1}\"", "nul",
            "[", #"{"a":1,"a":2}"#,
            String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
        ] {
            #expect(throws: JSONError.self, "\(text)") { try JSON.parse(Array(text.utf8)) }
        }
    }

    /// The writer keeps object order and escapes only what RFC 8259 §7 requires, and what it
    /// writes reads back as the same value.
    @Test func writerRoundTrips() throws {
        let value = JSON.array([
            .string("P2PK"),
            .object([
                ("nonce", .string("q\"\\/é\u{1}\n")), ("data", .number("-1.5e2")),
                ("tags", .array([.array([.string("a")]), .null, .bool(true)])),
            ]),
        ])
        let text = value.serialized
        #expect(
            text == #"["P2PK",{"nonce":"q\"\\/é\u0001\n","data":-1.5e2,"tags":[["a"],null,true]}]"#)
        #expect(try JSON.parse(Array(text.utf8)) == value)
    }
}

@Suite struct Base64URLTests {
    /// RFC 4648 §10 test vectors, in the URL-safe alphabet without padding.
    @Test func rfc4648Vectors() throws {
        let vectors = [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(try Base64URL.decode(encoded[...]) == Array(plain.utf8))
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(try Base64URL.decode("+/8="[...]) == [0xFB, 0xFF])
        #expect(throws: Base64URLError.badLength) { try Base64URL.decode("Zg="[...]) }
        #expect(throws: Base64URLError.badLength) { try Base64URL.decode("Z"[...]) }
        #expect(throws: Base64URLError.invalidCharacter(offset: 2)) {
            try Base64URL.decode("Zm 9"[...])
        }
    }
}
