import Codecs
import Testing

@Suite struct HexTests {
    @Test func encodesLowercaseWithOptionalPrefix() {
        #expect(Hex.encode([]) == "0x")
        #expect(Hex.encode([], prefix: false) == "")
        #expect(Hex.encode([0x00, 0xff, 0x1a, 0xb0]) == "0x00ff1ab0")
        #expect(Hex.encode([0xde, 0xad, 0xbe, 0xef], prefix: false) == "deadbeef")
        #expect(Hex.encode((0...255).map(UInt8.init), prefix: false).count == 512)
    }

    @Test func decodesEitherCaseWithOrWithoutPrefix() throws {
        #expect(try Hex.decode("") == [])
        #expect(try Hex.decode("0x") == [])
        #expect(try Hex.decode("0X0a") == [0x0a])
        #expect(try Hex.decode("0xDeadBEEF") == [0xde, 0xad, 0xbe, 0xef])
        #expect(try Hex.decode("00ff") == [0x00, 0xff])
        let text = "--0x0102--"
        let slice = text.dropFirst(2).dropLast(2)
        #expect(try Hex.decode(slice) == [0x01, 0x02])
    }

    @Test func roundTripsEveryByte() throws {
        let bytes = (0...255).map(UInt8.init)
        #expect(try Hex.decode(Hex.encode(bytes)) == bytes)
        #expect(try Hex.decode(Hex.encode(bytes, prefix: false).uppercased()) == bytes)
    }

    @Test func rejectsOddLength() {
        #expect(throws: HexError(kind: .oddLength, offset: 5)) { try Hex.decode("0x123") }
        #expect(throws: HexError(kind: .oddLength, offset: 1)) { try Hex.decode("a") }
        // "0" alone is one digit, not a prefix.
        #expect(throws: HexError(kind: .oddLength, offset: 1)) { try Hex.decode("0") }
    }

    @Test func rejectsNonHexCharactersWithTheirOffset() {
        #expect(throws: HexError(kind: .invalidCharacter, offset: 3)) { try Hex.decode("0x0g") }
        #expect(throws: HexError(kind: .invalidCharacter, offset: 0)) { try Hex.decode("zz") }
        #expect(throws: HexError(kind: .invalidCharacter, offset: 2)) { try Hex.decode("00 1") }
        #expect(throws: HexError(kind: .invalidCharacter, offset: 3)) { try Hex.decode("0x0x") }
        // Offsets count UTF-8 bytes: "é" is two of them.
        #expect(throws: HexError(kind: .invalidCharacter, offset: 2)) { try Hex.decode("0xé") }
    }

    @Test func errorDescriptionsSayWhatAndWhere() {
        let odd = HexError(kind: .oddLength, offset: 5).description
        #expect(odd.contains("odd") && odd.contains("5"))
        let bad = HexError(kind: .invalidCharacter, offset: 3).description
        #expect(bad.contains("invalid character") && bad.contains("offset 3"))
    }
}
