import Codecs
import Testing

@testable import EVM

/// The examples of the RLP specification (ethereum.org's RLP page and the yellow paper's
/// appendix B), both ways, and the decoder's refusals.
@Suite struct RLPTests {
    static let lorem = "Lorem ipsum dolor sit amet, consectetur adipisicing elit"

    static let vectors: [(String, RLP, String)] = [
        ("dog", .bytes(Array("dog".utf8)), "83646f67"),
        (
            "[cat, dog]", .list([.bytes(Array("cat".utf8)), .bytes(Array("dog".utf8))]),
            "c88363617483646f67"
        ),
        ("empty string", .bytes([]), "80"),
        ("empty list", .list([]), "c0"),
        ("integer 0", .uint(0), "80"),
        ("byte 0x00", .bytes([0]), "00"),
        ("byte 0x0f", .bytes([0x0f]), "0f"),
        ("integer 15", .uint(15), "0f"),
        ("integer 1024", .uint(1024), "820400"),
        (
            "set of three",
            .list([.list([]), .list([.list([])]), .list([.list([]), .list([.list([])])])]),
            "c7c0c1c0c3c0c1c0"
        ),
        (
            "56-byte string", .bytes(Array(lorem.utf8)),
            "b838" + Hex.encode(Array(lorem.utf8), prefix: false)
        ),
    ]

    @Test(arguments: vectors.indices) func encodesAndDecodesTheSpecExamples(_ index: Int) throws {
        let (name, item, hex) = Self.vectors[index]
        #expect(Hex.encode(item.encoded, prefix: false) == hex, "\(name)")
        #expect(try RLP.decode(Hex.decode(hex)) == item, "\(name)")
    }

    @Test func longListsUseTheLongForm() throws {
        // 20 three-byte strings: a 80-byte payload, so 0xf8 0x50.
        let item = RLP.list(Array(repeating: .bytes(Array("dog".utf8)), count: 20))
        #expect(Array(item.encoded.prefix(2)) == [0xf8, 80])
        #expect(try RLP.decode(item.encoded) == item)
        let long = RLP.bytes([UInt8](repeating: 7, count: 1024))
        #expect(Array(long.encoded.prefix(3)) == [0xb9, 0x04, 0x00])
        #expect(try RLP.decode(long.encoded) == long)
    }

    static let refusals: [(String, String, RLPError.Kind)] = [
        (
            "single byte in a prefix", "8100",
            .nonCanonical("a single byte below 0x80 is its own encoding")
        ),
        (
            "long form of a short string", "b805" + "0102030405",
            .nonCanonical("long form for a length below 56")
        ),
        (
            "length with a leading zero", "b90038" + String(repeating: "00", count: 56),
            .nonCanonical("length with a leading zero")
        ),
        ("truncated string", "83646f", .truncated),
        ("trailing bytes", "83646f6700", .trailingBytes),
        ("empty input", "", .truncated),
        ("item past its list", "c283646f67", .truncated),
        ("list longer than the input", "c5c0", .truncated),
        ("absurd length", "bbffffffff", .truncated),
    ]

    @Test(arguments: refusals.indices) func refusesNonCanonicalAndTruncatedInput(_ index: Int) {
        let (name, hex, kind) = Self.refusals[index]
        #expect(throws: RLPError.self, "\(name)") { try RLP.decode(Hex.decode(hex)) }
        do {
            _ = try RLP.decode(Hex.decode(hex))
        } catch let error as RLPError {
            #expect(error.kind == kind, "\(name): \(error)")
        } catch {
            Issue.record("\(name): \(error)")
        }
    }

    @Test func refusesDeepNesting() throws {
        var item = RLP.list([])
        for _ in 0..<(RLP.maximumDepth + 1) { item = .list([item]) }
        #expect {
            try RLP.decode(item.encoded)
        } throws: { ($0 as? RLPError)?.kind == .tooDeep }
        var shallower = RLP.list([])
        for _ in 0..<RLP.maximumDepth { shallower = .list([shallower]) }
        #expect((try? RLP.decode(shallower.encoded)) == shallower)
    }

    @Test func integersMustBeMinimal() throws {
        #expect(try RLP.decode([0x82, 0x04, 0x00]).uint64() == 1024)
        #expect(throws: RLPError.self) { try RLP.decode([0x82, 0x00, 0x04]).uint64() }
        #expect(throws: RLPError.self) { try RLP.bytes([UInt8](repeating: 1, count: 9)).uint64() }
    }
}
