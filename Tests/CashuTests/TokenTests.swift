import Cashu
import CashuTestSupport
import Codecs
import Testing

/// NUT-00 token vectors: cashubtc/nuts tests/00-tests.md (commit 3ddb1ae).
@Suite struct TokenTests {
    static let v3 =
        "cashuAeyJ0b2tlbiI6W3sibWludCI6Imh0dHBzOi8vODMzMy5zcGFjZTozMzM4IiwicHJvb2ZzIjpbeyJhbW91bnQiOjIsImlkIjoiMDA5YTFmMjkzMjUzZTQxZSIsInNlY3JldCI6IjQwNzkxNWJjMjEyYmU2MWE3N2UzZTZkMmFlYjRjNzI3OTgwYmRhNTFjZDA2YTZhZmMyOWUyODYxNzY4YTc4MzciLCJDIjoiMDJiYzkwOTc5OTdkODFhZmIyY2M3MzQ2YjVlNDM0NWE5MzQ2YmQyYTUwNmViNzk1ODU5OGE3MmYwY2Y4NTE2M2VhIn0seyJhbW91bnQiOjgsImlkIjoiMDA5YTFmMjkzMjUzZTQxZSIsInNlY3JldCI6ImZlMTUxMDkzMTRlNjFkNzc1NmIwZjhlZTBmMjNhNjI0YWNhYTNmNGUwNDJmNjE0MzNjNzI4YzcwNTdiOTMxYmUiLCJDIjoiMDI5ZThlNTA1MGI4OTBhN2Q2YzA5NjhkYjE2YmMxZDVkNWZhMDQwZWExZGUyODRmNmVjNjlkNjEyOTlmNjcxMDU5In1dfV0sInVuaXQiOiJzYXQiLCJtZW1vIjoiVGhhbmsgeW91LiJ9"
    static let v4Single =
        "cashuBpGF0gaJhaUgArSaMTR9YJmFwgaNhYQFhc3hAOWE2ZGJiODQ3YmQyMzJiYTc2ZGIwZGYxOTcyMTZiMjlkM2I4Y2MxNDU1M2NkMjc4MjdmYzFjYzk0MmZlZGI0ZWFjWCEDhhhUP_trhpXfStS6vN6So0qWvc2X3O4NfM-Y1HISZ5JhZGlUaGFuayB5b3VhbXVodHRwOi8vbG9jYWxob3N0OjMzMzhhdWNzYXQ="
    static let v4Multiple =
        "cashuBo2F0gqJhaUgA_9SLj17PgGFwgaNhYQFhc3hAYWNjMTI0MzVlN2I4NDg0YzNjZjE4NTAxNDkyMThhZjkwZjcxNmE1MmJmNGE1ZWQzNDdlNDhlY2MxM2Y3NzM4OGFjWCECRFODGd5IXVW-07KaZCvuWHk3WrnnpiDhHki6SCQh88-iYWlIAK0mjE0fWCZhcIKjYWECYXN4QDEzMjNkM2Q0NzA3YTU4YWQyZTIzYWRhNGU5ZjFmNDlmNWE1YjRhYzdiNzA4ZWIwZDYxZjczOGY0ODMwN2U4ZWVhY1ghAjRWqhENhLSsdHrr2Cw7AFrKUL9Ffr1XN6RBT6w659lNo2FhAWFzeEA1NmJjYmNiYjdjYzY0MDZiM2ZhNWQ1N2QyMTc0ZjRlZmY4YjQ0MDJiMTc2OTI2ZDNhNTdkM2MzZGNiYjU5ZDU3YWNYIQJzEpxXGeWZN5qXSmJjY8MzxWyvwObQGr5G1YCCgHicY2FtdWh0dHA6Ly9sb2NhbGhvc3Q6MzMzOGF1Y3NhdA"

    @Test func readsTheV3Example() throws {
        let token = try Token.decode(Self.v3)
        #expect(token.mint == "https://8333.space:3338")
        #expect(token.unit == "sat")
        #expect(token.memo == "Thank you.")
        #expect(token.proofs.map(\.amount) == [2, 8])
        #expect(token.proofs.map { hex($0.keysetID) } == ["009a1f293253e41e", "009a1f293253e41e"])
        #expect(
            token.proofs[0].secret
                == "407915bc212be61a77e3e6d2aeb4c727980bda51cd06a6afc29e2861768a7837")
        #expect(
            hex(token.proofs[1].signature.compressed)
                == "029e8e5050b890a7d6c0968db16bc1d5d5fa040ea1de284f6ec69d61299f671059")
        #expect(try Token.decode("cashu:" + Self.v3) == token)
    }

    @Test func readsTheV4Examples() throws {
        let single = try Token.decode(Self.v4Single)
        #expect(single.mint == "http://localhost:3338")
        #expect(single.memo == "Thank you")
        #expect(single.proofs.count == 1)
        #expect(hex(single.proofs[0].keysetID) == "00ad268c4d1f5826")
        #expect(
            single.proofs[0].secret
                == "9a6dbb847bd232ba76db0df197216b29d3b8cc14553cd27827fc1cc942fedb4e")
        #expect(
            hex(single.proofs[0].signature.compressed)
                == "038618543ffb6b8695df4ad4babcde92a34a96bdcd97dcee0d7ccf98d472126792")
        let multiple = try Token.decode(Self.v4Multiple)
        #expect(multiple.proofs.map(\.amount) == [1, 2, 1])
        #expect(
            multiple.proofs.map { hex($0.keysetID) } == [
                "00ffd48b8f5ecf80", "00ad268c4d1f5826", "00ad268c4d1f5826",
            ])
        #expect(multiple.amount == 4)
        #expect(multiple.memo == nil)
    }

    @Test func writesV4ThatReadsBackTheSame() throws {
        let mint = try TestMint()
        let token = try mint.token([1, 4, 16], memo: "coffee")
        let text = token.encoded()
        #expect(text.hasPrefix("cashuB"))
        #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
        #expect(try Token.decode(text) == token)
        for example in [Self.v4Single, Self.v4Multiple] {
            let read = try Token.decode(example)
            #expect(try Token.decode(read.encoded()) == read)
        }
    }

    @Test(arguments: [
        ("casshuA" + String(v3.dropFirst(6)), "prefix"),
        (String(v3.dropFirst(6)), "prefix"),
        ("cashuC" + String(v3.dropFirst(6)), "version"),
        ("cashuB", "token"),
        ("cashuA", "token"),
    ])
    func refusesMalformedTokens(text: String, field: String) {
        #expect {
            try Token.decode(text)
        } throws: { error in
            (error as? CashuError)?.field == field
        }
    }

    /// Every truncation of a V4 token is refused, never read as a smaller token.
    @Test func everyTruncationIsRefused() throws {
        let text = try TestMint().token([1, 2, 8]).encoded()
        var accepted = 0
        for length in 0..<text.count where (try? Token.decode(String(text.prefix(length)))) != nil {
            accepted += 1
        }
        #expect(accepted == 0)
    }

    @Test func aV3TokenOfTwoMintsIsReadPerMint() throws {
        let proof =
            #"{"amount":1,"id":"009a1f293253e41e","secret":"x","C":"02bc9097997d81afb2cc7346b5e4345a9346bd2a506eb7958598a72f0cf85163ea"}"#
        let json =
            #"{"token":[{"mint":"https://a.example/","proofs":[\#(proof)]},{"mint":"https://b.example","proofs":[\#(proof)]}]}"#
        let text = "cashuA" + Base64URL.encode(Array(json.utf8))
        let tokens = try Token.decodeAll(text)
        #expect(tokens.map(\.mint) == ["https://a.example", "https://b.example"])
        #expect(tokens.allSatisfy { $0.unit == "sat" })
        #expect(throws: CashuError.self) { try Token.decode(text) }
    }
}
