import Keystore
import TenderTestSupport
import Testing

@Suite struct MnemonicTests {
    static let zeroPhrase =
        "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

    @Test func foldsWhitespaceAndCase() throws {
        let messy =
            "  ABANDON\tabandon\n\nAbandon abandon abandon abandon  abandon abandon abandon "
            + "abandon abandon\r\nAbOuT\n"
        let mnemonic = try Mnemonic(phrase: messy)
        #expect(mnemonic.phrase == Self.zeroPhrase)
        #expect(mnemonic.entropy == [UInt8](repeating: 0, count: 16))
    }

    @Test(arguments: [0, 1, 11, 13, 23, 25])
    func refusesWrongWordCounts(count: Int) {
        let phrase = Array(repeating: "abandon", count: count).joined(separator: " ")
        #expect(throws: MnemonicError.invalidWordCount(count)) { try Mnemonic(phrase: phrase) }
    }

    @Test func namesTheUnknownWordItsPositionAndSuggestions() throws {
        let phrase = Self.zeroPhrase.replacingOccurrences(of: "about", with: "abuot")
        let error = try #require(throws: MnemonicError.self) { try Mnemonic(phrase: phrase) }
        guard case .unknownWord(let word, let position, let suggestions) = error else {
            Issue.record("expected unknownWord, got \(error)")
            return
        }
        #expect(word == "abuot")
        #expect(position == 12)
        #expect(suggestions.first == "about")
        // The loggable text leaves the word out; the hint is for the person typing.
        #expect(error.description == "word 12 is not in the BIP39 English word list")
        #expect(!error.description.contains("abuot"))
        #expect(error.hint?.hasPrefix("did you mean about") == true)
    }

    @Test func reportsTheFirstUnknownWord() throws {
        let phrase =
            "abandon xyzzy abandon abandon abandon abandon abandon abandon abandon "
            + "abandon abandon qqq"
        let error = try #require(throws: MnemonicError.self) { try Mnemonic(phrase: phrase) }
        guard case .unknownWord(let word, let position, _) = error else {
            Issue.record("expected unknownWord, got \(error)")
            return
        }
        #expect(word == "xyzzy")
        #expect(position == 2)
    }

    @Test func detectsAChecksumMismatch() {
        // Twelve "abandon" is all-zero entropy with the wrong checksum ("about" is right).
        let phrase = Array(repeating: "abandon", count: 12).joined(separator: " ")
        #expect(throws: MnemonicError.checksumMismatch) { try Mnemonic(phrase: phrase) }
        // Swapping two words keeps every word valid but breaks the checksum.
        let swapped = "legal winner thank year wave sausage worth useful legal winner yellow thank"
        #expect(throws: MnemonicError.checksumMismatch) { try Mnemonic(phrase: swapped) }
    }

    @Test(arguments: [0, 15, 17, 33, 64])
    func refusesWrongEntropyLengths(count: Int) {
        #expect(throws: MnemonicError.invalidEntropyLength(count)) {
            try Mnemonic(entropy: [UInt8](repeating: 1, count: count))
        }
    }

    @Test(arguments: [12, 15, 18, 21, 24])
    func generatesEachSize(wordCount: Int) throws {
        var generator = SeededGenerator(seed: UInt64(wordCount))
        let mnemonic = try Mnemonic.generate(wordCount: wordCount, using: &generator)
        #expect(mnemonic.words.count == wordCount)
        #expect(mnemonic.entropy.count == wordCount * 4 / 3)
        #expect(try Mnemonic(phrase: mnemonic.phrase) == mnemonic)
    }

    @Test func generatesFromTheInjectedGenerator() throws {
        var first = SeededGenerator(seed: 7)
        var second = SeededGenerator(seed: 7)
        let a = try Mnemonic.generate(using: &first)
        let b = try Mnemonic.generate(using: &second)
        #expect(a == b)
        #expect(a.words.count == 24)
        #expect(try Mnemonic.generate() != Mnemonic.generate())
    }

    @Test func refusesToGenerateOddSizes() {
        var generator = SeededGenerator(seed: 1)
        #expect(throws: MnemonicError.invalidWordCount(13)) {
            try Mnemonic.generate(wordCount: 13, using: &generator)
        }
    }

    @Test func passphraseIsNormalisedToNFKD() throws {
        let mnemonic = try Mnemonic(phrase: Self.zeroPhrase)
        let composed = mnemonic.seed(passphrase: "caf\u{e9}")
        let decomposed = mnemonic.seed(passphrase: "cafe\u{301}")
        #expect(composed == decomposed)
        #expect(composed != mnemonic.seed(passphrase: "cafe"))
        #expect(mnemonic.seed().count == 64)
    }

    @Test func keepsTheWordsOutOfDescriptions() throws {
        let mnemonic = try Mnemonic(phrase: Self.zeroPhrase)
        for text in [
            String(describing: mnemonic), String(reflecting: mnemonic), "\(mnemonic)",
            {
                var out = ""; dump(mnemonic, to: &out); return out
            }(),
        ] {
            #expect(!text.contains("abandon"), "\(text)")
        }
    }
}
