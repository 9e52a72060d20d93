import Codecs
import Testing

@Suite struct CBORErrorTests {
    @Test func truncated() {
        #expect(decodeError([]) == CBORError(kind: .truncated, offset: 0))
        #expect(decodeError(h("18")) == CBORError(kind: .truncated, offset: 0))
        #expect(decodeError(h("4401")) == CBORError(kind: .truncated, offset: 0))
        #expect(decodeError(h("8201")) == CBORError(kind: .truncated, offset: 0))
        #expect(decodeError(h("820100")) == nil)
        #expect(decodeError(h("9f01"), .lenient) == CBORError(kind: .truncated, offset: 2))
    }

    @Test func trailingBytes() {
        #expect(decodeError(h("0000")) == CBORError(kind: .trailingBytes, offset: 1))
        #expect(decodeError(h("8100ff"), .lenient) == CBORError(kind: .trailingBytes, offset: 2))
    }

    @Test func tooLarge() {
        let small = CBORDecodingOptions(maxInputBytes: 4)
        #expect(decodeError(h("43010203"), small) == nil)
        #expect(decodeError(h("4401020304"), small) == CBORError(kind: .tooLarge, offset: 4))
    }

    @Test func tooDeep() {
        // Depth counts arrays, maps and tags: 32 levels pass, 33 fail at the 33rd head.
        let deepest = [UInt8](repeating: 0x81, count: 32) + [0x00]
        #expect(decodeError(deepest) == nil)
        #expect(
            decodeError([0x81] + deepest) == CBORError(kind: .tooDeep, offset: 32))
        let tags = [UInt8](repeating: 0xc1, count: 100) + [0x00]
        #expect(decodeError(tags) == CBORError(kind: .tooDeep, offset: 32))
        let maps = h("a1 00 a1 00 a1 00 00")  // {0: {0: {0: 0}}}
        let depthTwo = CBORDecodingOptions(maxDepth: 2)
        #expect(decodeError(maps, depthTwo) == CBORError(kind: .tooDeep, offset: 4))
        // A hostile nesting far past the limit stops at the limit, without deep recursion.
        let hostile = [UInt8](repeating: 0x9f, count: 100_000)
        #expect(decodeError(hostile, .lenient) == CBORError(kind: .tooDeep, offset: 32))
        #expect(decodeError(h("00"), CBORDecodingOptions(maxDepth: 0)) == nil)
        #expect(
            decodeError(h("80"), CBORDecodingOptions(maxDepth: 0))
                == CBORError(kind: .tooDeep, offset: 0))
    }

    @Test func tooManyItems() {
        let two = CBORDecodingOptions(requireDeterministic: false, maxCollectionCount: 2)
        #expect(decodeError(h("82 01 02"), two) == nil)
        #expect(decodeError(h("83 01 02 03"), two) == CBORError(kind: .tooManyItems, offset: 0))
        #expect(decodeError(h("9f 01 02 03 ff"), two) == CBORError(kind: .tooManyItems, offset: 0))
        #expect(
            decodeError(h("a3 01 00 02 00 03 00"), two) == CBORError(kind: .tooManyItems, offset: 0)
        )
        #expect(
            decodeError(h("bf 01 00 02 00 03 00 ff"), two)
                == CBORError(kind: .tooManyItems, offset: 0))
        // A count of 2^63 fails on the limit or on the input left, before any allocation.
        #expect(decodeError(h("9b 8000000000000000")) == CBORError(kind: .tooManyItems, offset: 0))
        let unlimited = CBORDecodingOptions(maxCollectionCount: .max)
        #expect(
            decodeError(h("9b 7fffffffffffffff"), unlimited)
                == CBORError(kind: .truncated, offset: 0))
        #expect(
            decodeError(h("bb 7fffffffffffffff"), unlimited)
                == CBORError(kind: .truncated, offset: 0))
        // A map needs two bytes per pair: 3 pairs cannot fit in 5 bytes.
        #expect(
            decodeError(h("a3 01 00 02 00 03"), unlimited) == CBORError(kind: .truncated, offset: 0)
        )
    }

    @Test func stringTooLong() {
        // Five bytes declaring a 4 GiB string, and nine declaring 2^63 bytes: refused from the
        // head alone.
        #expect(decodeError(h("5a ffffffff")) == CBORError(kind: .stringTooLong, offset: 0))
        #expect(decodeError(h("7b 8000000000000000")) == CBORError(kind: .stringTooLong, offset: 0))
        let unlimited = CBORDecodingOptions(maxStringBytes: .max)
        #expect(
            decodeError(h("5b 7fffffffffffffff"), unlimited)
                == CBORError(kind: .truncated, offset: 0))
        let four = CBORDecodingOptions(requireDeterministic: false, maxStringBytes: 4)
        #expect(decodeError(h("44 01020304"), four) == nil)
        #expect(decodeError(h("45 0102030405"), four) == CBORError(kind: .stringTooLong, offset: 0))
        // Indefinite-length strings count all their chunks together.
        #expect(
            decodeError(h("5f 42 0102 43 030405 ff"), four)
                == CBORError(kind: .stringTooLong, offset: 4))
    }

    @Test func invalidUTF8() {
        #expect(decodeError(h("62 c328")) == CBORError(kind: .invalidUTF8, offset: 0))
        #expect(decodeError(h("62 c0af")) == CBORError(kind: .invalidUTF8, offset: 0))  // overlong
        // A UTF-16 surrogate written as UTF-8.
        #expect(decodeError(h("63 eda080")) == CBORError(kind: .invalidUTF8, offset: 0))
        // A character split across chunks is invalid (RFC 8949 §3.2.3).
        #expect(
            decodeError(h("7f 61 c3 61 bc ff"), .lenient)
                == CBORError(kind: .invalidUTF8, offset: 1))
    }

    @Test func reservedAdditionalInfo() {
        #expect(decodeError(h("1c")) == CBORError(kind: .reservedAdditionalInfo, offset: 0))
        #expect(
            decodeError(h("1f"), .lenient) == CBORError(kind: .reservedAdditionalInfo, offset: 0))
        #expect(
            decodeError(h("df 00"), .lenient) == CBORError(kind: .reservedAdditionalInfo, offset: 0)
        )
    }

    @Test func unexpectedBreak() {
        #expect(decodeError(h("ff")) == CBORError(kind: .unexpectedBreak, offset: 0))
        #expect(decodeError(h("81 ff")) == CBORError(kind: .unexpectedBreak, offset: 1))
        #expect(
            decodeError(h("bf 00 ff"), .lenient) == CBORError(kind: .unexpectedBreak, offset: 2))
    }

    @Test func remainingKinds() {
        #expect(decodeError(h("1817")) == CBORError(kind: .nonCanonicalHead, offset: 0))
        #expect(decodeError(h("9fff")) == CBORError(kind: .indefiniteLength, offset: 0))
        #expect(
            decodeError(h("5f 00 ff"), .lenient) == CBORError(kind: .indefiniteLength, offset: 1))
        #expect(decodeError(h("a2 02 00 01 00")) == CBORError(kind: .unsortedMapKeys, offset: 3))
        #expect(decodeError(h("a2 01 00 01 00")) == CBORError(kind: .duplicateMapKey, offset: 3))
        #expect(decodeError(h("fa 3fc00000")) == CBORError(kind: .nonCanonicalFloat, offset: 0))
        #expect(
            decodeError(h("f8 18"), .lenient) == CBORError(kind: .invalidSimpleValue, offset: 0))
    }

    @Test func descriptionNamesTheProblemAndOffset() {
        let error = CBORError(kind: .duplicateMapKey, offset: 17)
        #expect(error.description == "CBOR: duplicate map key at offset 17")
        #expect(CBORError(kind: .truncated, offset: 0).description.contains("offset 0"))
    }
}

/// RFC 8949 Appendix F.1: examples of CBOR data items that are not well-formed, by group,
/// with the kinds this decoder reports for them. All must fail in both modes.
struct NotWellFormed: CustomTestStringConvertible, Sendable {
    let group: String
    let inputs: [String]
    let kinds: [CBORError.Kind]
    var testDescription: String { group }
}

let appendixF: [NotWellFormed] = [
    .init(
        group: "End of input in a head",
        inputs: [
            "18", "19", "1a", "1b", "19 01", "1a 01 02", "1b 01 02 03 04 05 06 07", "38", "58",
            "78", "98", "9a 01 ff 00", "b8", "d8", "f8", "f9 00", "fa 00 00", "fb 00 00 00",
        ],
        kinds: [.truncated]),
    .init(
        group: "Definite-length strings with short data",
        inputs: [
            "41", "61", "5a ff ff ff ff 00", "5b ff ff ff ff ff ff ff ff 01 02 03",
            "7a ff ff ff ff 00", "7b 7f ff ff ff ff ff ff ff 01 02 03",
        ],
        kinds: [.truncated, .stringTooLong]),
    .init(
        group: "Definite-length maps and arrays not closed with enough items",
        inputs: [
            "81", "81 81 81 81 81 81 81 81 81", "82 00", "a1", "a2 01 02", "a1 00",
            "a2 00 00 00",
        ],
        kinds: [.truncated]),
    .init(group: "Tag number not followed by tag content", inputs: ["c0"], kinds: [.truncated]),
    .init(
        group: "Indefinite-length strings not closed by a break",
        inputs: ["5f 41 00", "7f 61 00"], kinds: [.truncated]),
    .init(
        group: "Indefinite-length maps and arrays not closed by a break",
        inputs: [
            "9f", "9f 01 02", "bf", "bf 01 02 01 02", "81 9f", "9f 80 00",
            "9f 9f 9f 9f 9f ff ff ff ff", "9f 81 9f 81 9f 9f ff ff ff",
        ],
        // "bf 01 02 01 02" repeats key 1 before it runs out: whichever is met first.
        kinds: [.truncated, .duplicateMapKey]),
    .init(
        group: "Reserved additional information values",
        inputs: [
            "1c", "1d", "1e", "3c", "3d", "3e", "5c", "5d", "5e", "7c", "7d", "7e", "9c", "9d",
            "9e", "bc", "bd", "be", "dc", "dd", "de", "fc", "fd", "fe",
        ],
        kinds: [.reservedAdditionalInfo]),
    .init(
        group: "Reserved two-byte encodings of simple values",
        inputs: ["f8 00", "f8 01", "f8 18", "f8 1f"], kinds: [.invalidSimpleValue]),
    .init(
        group: "Indefinite-length string chunks not of the correct type",
        inputs: [
            "5f 00 ff", "5f 21 ff", "5f 61 00 ff", "5f 80 ff", "5f a0 ff", "5f c0 00 ff",
            "5f e0 ff", "7f 41 00 ff",
        ],
        kinds: [.indefiniteLength]),
    .init(
        group: "Indefinite-length string chunks not definite length",
        inputs: ["5f 5f 41 00 ff ff", "7f 7f 61 00 ff ff"], kinds: [.indefiniteLength]),
    .init(
        group: "Break occurring on its own outside of an indefinite-length item",
        inputs: ["ff"], kinds: [.unexpectedBreak]),
    .init(
        group: "Break occurring in a definite-length array or map or a tag",
        inputs: [
            "81 ff", "82 00 ff", "a1 ff", "a1 ff 00", "a1 00 ff", "a2 00 00 ff", "9f 81 ff",
            "9f 82 9f 81 9f 9f ff ff ff ff",
        ],
        // "a1 ff" and "a2 00 00 ff" are refused from the head: too few bytes for the pairs.
        kinds: [.unexpectedBreak, .truncated]),
    .init(
        group: "Break in an indefinite-length map in a value position",
        // "bf 00 00 00 ff" repeats key 0 before reaching the break.
        inputs: ["bf 00 ff", "bf 00 00 00 ff"], kinds: [.unexpectedBreak, .duplicateMapKey]),
    .init(
        group: "Major type 0, 1, 6 with additional information 31",
        inputs: ["1f", "3f", "df"], kinds: [.reservedAdditionalInfo]),
]

@Suite struct CBORAppendixFTests {
    @Test(arguments: appendixF)
    func notWellFormedInputsFail(_ example: NotWellFormed) {
        for input in example.inputs {
            for options in [CBORDecodingOptions.lenient, .deterministic] {
                let error = decodeError(h(input), options)
                #expect(error != nil, "\(input) accepted")
                if options.requireDeterministic == false, let error {
                    #expect(example.kinds.contains(error.kind), "\(input): \(error)")
                }
            }
        }
    }
}
