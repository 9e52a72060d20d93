import Foundation

/// A BIP39 mnemonic in the English word list: entropy plus a checksum, spelt as 12 to 24 words.
///
/// The words and the entropy are secrets. `description` and `dump` show only the word count, so
/// a mnemonic that ends up in a log line or a debugger print stays private; the `String`s of
/// `words` and `phrase` cannot be wiped, so keep them short-lived.
public struct Mnemonic: Sendable, Equatable {
    /// The 2,048 English words, in index order (for completion and checking as a person types).
    public static var wordList: [String] { WordList.words }

    /// 16, 20, 24, 28 or 32 bytes.
    public let entropy: [UInt8]
    /// 12, 15, 18, 21 or 24 lowercase words.
    public let words: [String]

    /// The words joined by single spaces: the canonical spelling BIP39 hashes into the seed.
    public var phrase: String { words.joined(separator: " ") }

    /// Spells `entropy` (16, 20, 24, 28 or 32 bytes) with its checksum.
    public init(entropy: [UInt8]) throws(MnemonicError) {
        guard [16, 20, 24, 28, 32].contains(entropy.count) else {
            throw .invalidEntropyLength(entropy.count)
        }
        // The checksum is the first ENT/32 bits of SHA-256(entropy): at most 8, so one byte.
        var bits = entropy + [sha256(entropy)[0]]
        defer { wipe(&bits) }
        let wordCount = entropy.count * 8 / 32 * 3
        self.entropy = entropy
        self.words = (0..<wordCount).map { WordList.words[Self.elevenBits(of: bits, at: $0 * 11)] }
    }

    /// Parses a phrase typed by a person: any run of whitespace separates words, case and Unicode
    /// compatibility forms (NFKD) are folded. Checks the count, each word, then the checksum.
    public init(phrase: String) throws(MnemonicError) {
        let typed = phrase.decomposedStringWithCompatibilityMapping.lowercased()
            .split(whereSeparator: \.isWhitespace).map(String.init)
        guard [12, 15, 18, 21, 24].contains(typed.count) else {
            throw .invalidWordCount(typed.count)
        }
        var indices: [Int] = []
        for (offset, word) in typed.enumerated() {
            guard let index = WordList.index(of: word) else {
                throw .unknownWord(
                    word: word, position: offset + 1,
                    suggestions: WordList.suggestions(for: word))
            }
            indices.append(index)
        }
        // 11 bits a word: the entropy, then ENT/32 checksum bits (one per three words).
        var bits = Self.pack(indices)
        defer { wipe(&bits) }
        let entropyCount = typed.count * 4 / 3
        let checksumBits = typed.count / 3
        let entropy = Array(bits[0..<entropyCount])
        let stored = bits[entropyCount] >> (8 - checksumBits)
        let expected = sha256(entropy)[0] >> (8 - checksumBits)
        guard stored == expected else { throw .checksumMismatch }
        self.entropy = entropy
        self.words = typed
    }

    /// Fresh entropy from `generator` (tests inject a seeded one; use the system's otherwise).
    public static func generate(
        wordCount: Int = 24, using generator: inout some RandomNumberGenerator
    ) throws(MnemonicError) -> Mnemonic {
        guard [12, 15, 18, 21, 24].contains(wordCount) else {
            throw .invalidWordCount(wordCount)
        }
        var entropy = [UInt8](repeating: 0, count: wordCount * 4 / 3)
        for index in entropy.indices { entropy[index] = generator.next() }
        return try Mnemonic(entropy: entropy)
    }

    /// Fresh entropy from the system's cryptographically secure generator.
    public static func generate(wordCount: Int = 24) throws(MnemonicError) -> Mnemonic {
        var generator = SystemRandomNumberGenerator()
        return try generate(wordCount: wordCount, using: &generator)
    }

    /// The 11-bit big-endian number starting at bit `offset` of `bytes`.
    private static func elevenBits(of bytes: [UInt8], at offset: Int) -> Int {
        var value = 0
        for bit in offset..<(offset + 11) {
            value = value << 1 | Int(bytes[bit / 8] >> (7 - bit % 8) & 1)
        }
        return value
    }

    /// Concatenates 11-bit indices into bytes, zero-padding the last one.
    private static func pack(_ indices: [Int]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: (indices.count * 11 + 7) / 8)
        for (position, index) in indices.enumerated() {
            for bit in 0..<11 where index >> (10 - bit) & 1 == 1 {
                let offset = position * 11 + bit
                bytes[offset / 8] |= 0x80 >> UInt8(offset % 8)
            }
        }
        return bytes
    }
}

extension Mnemonic: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "Mnemonic(\(words.count) words, redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
