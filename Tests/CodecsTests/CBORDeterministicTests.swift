import Codecs
import Testing

/// A non-deterministic encoding, the error deterministic mode gives, and the deterministic
/// encoding of the same item (RFC 8949 §4.2.1 rules, one form each).
struct NonDeterministicForm: CustomTestStringConvertible, Sendable {
    let input: String
    let kind: CBORError.Kind
    let offset: Int
    let deterministic: String
    var testDescription: String { input }
}

let nonDeterministicForms: [NonDeterministicForm] = [
    // Heads longer than needed: integers, negative integers, lengths, counts, tags.
    .init(input: "1817", kind: .nonCanonicalHead, offset: 0, deterministic: "17"),
    .init(input: "1900ff", kind: .nonCanonicalHead, offset: 0, deterministic: "18ff"),
    .init(input: "1a0000ffff", kind: .nonCanonicalHead, offset: 0, deterministic: "19ffff"),
    .init(
        input: "1b00000000ffffffff", kind: .nonCanonicalHead, offset: 0,
        deterministic: "1affffffff"),
    .init(input: "3800", kind: .nonCanonicalHead, offset: 0, deterministic: "20"),
    .init(input: "580100", kind: .nonCanonicalHead, offset: 0, deterministic: "4100"),
    .init(input: "79000161", kind: .nonCanonicalHead, offset: 0, deterministic: "6161"),
    .init(input: "9800", kind: .nonCanonicalHead, offset: 0, deterministic: "80"),
    .init(input: "b90000", kind: .nonCanonicalHead, offset: 0, deterministic: "a0"),
    .init(input: "d80100", kind: .nonCanonicalHead, offset: 0, deterministic: "c100"),
    .init(input: "811800", kind: .nonCanonicalHead, offset: 1, deterministic: "8100"),
    // Indefinite lengths.
    .init(input: "5fff", kind: .indefiniteLength, offset: 0, deterministic: "40"),
    .init(input: "7f6161ff", kind: .indefiniteLength, offset: 0, deterministic: "6161"),
    .init(input: "9f00ff", kind: .indefiniteLength, offset: 0, deterministic: "8100"),
    .init(input: "bf0000ff", kind: .indefiniteLength, offset: 0, deterministic: "a10000"),
    // Map keys out of bytewise order: {2: 0, 1: 0}, and RFC 7049's length-first order
    // (10, -1, 1000) as cbor2's canonical mode writes it.
    .init(input: "a202000100", kind: .unsortedMapKeys, offset: 3, deterministic: "a201000200"),
    .init(
        input: "a30a0020001903e800", kind: .unsortedMapKeys, offset: 5,
        deterministic: "a30a001903e8002000"),
    // Floats wider than needed, and NaNs other than f97e00.
    .init(input: "fa3fc00000", kind: .nonCanonicalFloat, offset: 0, deterministic: "f93e00"),
    .init(
        input: "fb3ff8000000000000", kind: .nonCanonicalFloat, offset: 0,
        deterministic: "f93e00"),
    .init(
        input: "fb40f86a0000000000", kind: .nonCanonicalFloat, offset: 0,
        deterministic: "fa47c35000"),
    .init(input: "fa7fc00000", kind: .nonCanonicalFloat, offset: 0, deterministic: "f97e00"),
    .init(input: "f97e01", kind: .nonCanonicalFloat, offset: 0, deterministic: "f97e00"),
    .init(input: "f9fe00", kind: .nonCanonicalFloat, offset: 0, deterministic: "f97e00"),
    .init(
        input: "8201fa3fc00000", kind: .nonCanonicalFloat, offset: 2, deterministic: "8201f93e00"),
]

@Suite struct CBORDeterministicTests {
    @Test(arguments: nonDeterministicForms)
    func rejectsEachNonDeterministicForm(_ form: NonDeterministicForm) throws {
        #expect(decodeError(h(form.input)) == CBORError(kind: form.kind, offset: form.offset))
        let lenient = try CBOR.decode(h(form.input), options: .lenient)
        #expect(hex(lenient.encoded()) == form.deterministic)
        #expect(try CBOR.decode(h(form.deterministic)) == sortedMaps(lenient))
    }

    @Test func duplicateKeysAreRejectedInBothModes() {
        let duplicate = h("a2 01 00 01 00")
        #expect(decodeError(duplicate) == CBORError(kind: .duplicateMapKey, offset: 3))
        #expect(decodeError(duplicate, .lenient) == CBORError(kind: .duplicateMapKey, offset: 3))
        // Lenient mode compares keys as data items: 1 written as 01 and as 18 01 collide,
        // as do "a" written definitely and indefinitely.
        #expect(
            decodeError(h("a2 01 00 1801 00"), .lenient)
                == CBORError(kind: .duplicateMapKey, offset: 3))
        #expect(
            decodeError(h("a2 6161 00 7f6161ff 00"), .lenient)
                == CBORError(kind: .duplicateMapKey, offset: 4))
        // Nested maps are checked too.
        #expect(
            decodeError(h("81 a2 6161 00 6161 01"))
                == CBORError(kind: .duplicateMapKey, offset: 5))
    }

    @Test func acceptedInputsReEncodeToThemselves() throws {
        let inputs = [
            "a3 0a 00 1903e8 00 20 00", "d90100 83 f4 f5 f6", "c2 49 010000000000000000",
            "a2 41 00 00 61 00 00", "f8 20", "fb 3fb999999999999a",
        ]
        for input in inputs {
            #expect(try CBOR.decode(h(input)).encoded() == h(input), "\(input)")
        }
    }
}
