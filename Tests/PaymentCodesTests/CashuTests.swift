import Codecs
import Testing

@testable import PaymentCodes

@Suite struct CashuTests {
    @Test func nut00V3Example() throws {
        let token = try CashuToken.decode(NUT00Vectors.v3)
        #expect(token.version == .v3)
        #expect(token.mints.map(\.mint) == ["https://8333.space:3338"])
        #expect(token.mints[0].amounts == [2, 8])
        #expect(token.mints[0].keysets == ["009a1f293253e41e"])
        #expect(token.unit == "sat")
        #expect(token.memo == "Thank you.")
        #expect(token.total == 10)
        #expect(token.explanation.contains("2 proofs worth 10 sat in total"))
        #expect(token.explanation.contains("Tender's Cashu wallet takes it offline"))
    }

    @Test func nut00V4Example() throws {
        let token = try CashuToken.decode(NUT00Vectors.v4)
        #expect(token.version == .v4)
        #expect(token.mints.map(\.mint) == ["http://localhost:3338"])
        #expect(token.mints[0].amounts == [1, 2, 1])
        #expect(token.mints[0].keysets == ["00ffd48b8f5ecf80", "00ad268c4d1f5826"])
        #expect(token.unit == "sat")
        #expect(token.memo == nil)
        #expect(token.total == 4)
        #expect(token.explanation.contains("3 proofs worth 4 sat in total"))
    }

    @Test func uriPrefixAndPadding() throws {
        #expect(
            try CashuToken.decode("cashu:" + NUT00Vectors.v4)
                == (try CashuToken.decode(NUT00Vectors.v4)))
        // The V3 example's base64 is 616 characters (no padding needed); one byte less of
        // JSON would need padding: check that padded and unpadded forms both decode.
        let json =
            #"{"token":[{"mint":"https://m.example","proofs":[{"amount":64,"id":"00aa","secret":"s","C":"02ab"}]}]}"#
        let encoded = base64url(Array(json.utf8))
        #expect(encoded.hasSuffix("="))
        let padded = try CashuToken.decode("cashuA" + encoded)
        let unpadded = try CashuToken.decode("cashuA" + encoded.replacing("=", with: ""))
        #expect(padded == unpadded)
        #expect(padded.total == 64)
        #expect(padded.unit == nil)
        #expect(padded.explanation.contains("unit not stated"))
    }

    @Test func refusesMalformedTokens() {
        let proof = #"{"amount":1,"id":"00aa","secret":"s","C":"02ab"}"#
        let bad: [(String, String)] = [
            ("cashuC" + base64url(Array("{}".utf8)), "version"),
            ("cashuA" + "!!!!", "token"),
            ("cashuA" + base64url(Array("{}".utf8)), "token"),
            ("cashuA" + base64url(Array(#"{"token":[]}"#.utf8)), "token"),
            (
                "cashuA"
                    + base64url(
                        Array(
                            #"{"token":[{"mint":"m","proofs":[{"amount":-1,"secret":"s","C":"c"}]}]}"#
                                .utf8)), "token[0].proofs[0].amount"
            ),
            (
                "cashuA"
                    + base64url(
                        Array(
                            #"{"token":[{"mint":"m","proofs":[{"amount":1.5,"secret":"s","C":"c"}]}]}"#
                                .utf8)), "token[0].proofs[0].amount"
            ),
            (
                "cashuA"
                    + base64url(Array(#"{"token":[{"mint":"m","proofs":[{"amount":1}]}]}"#.utf8)),
                "token[0].proofs[0]"
            ),
            (
                "cashuA" + base64url(Array(#"{"token":[{"mint":7,"proofs":[\#(proof)]}]}"#.utf8)),
                "token[0].mint"
            ),
            (
                "cashuA"
                    + base64url(
                        Array(#"{"token":[{"mint":"m","proofs":[\#(proof)]}],"token":[]}"#.utf8)),
                "token"
            ),
            (
                "cashuA"
                    + base64url(Array(#"{"token":[{"mint":"m","proofs":[\#(proof),]}]}"#.utf8)),
                "token"
            ),
            (
                "cashuA"
                    + base64url(
                        Array(#"{"token":[{"mint":"m","proofs":[\#(proof)]}],"unit":5}"#.utf8)),
                "unit"
            ),
            ("cashuB" + base64url([0xA1, 0x61, 0x6D, 0x61, 0x78]), "u"),  // {"m": "x"}: no unit
            ("cashuB" + base64url([0x01]), "token"),  // not a map
            ("cashuB" + base64url([0xA1, 0x61]), "token"),  // truncated CBOR
            ("cashu", "prefix"),
        ]
        for (text, field) in bad {
            do {
                let token = try CashuToken.decode(text)
                Issue.record("accepted \(text): \(token)")
            } catch { #expect(error.field == field, "\(text): \(error)") }
        }
    }
}

/// Base64url with padding, for building test tokens.
func base64url(_ bytes: [UInt8]) -> String {
    let text = Base64URL.encode(bytes)
    return text + String(repeating: "=", count: (4 - text.count % 4) % 4)
}
