/// Why entropy or a phrase is not a valid BIP39 English mnemonic.
///
/// `description` is safe to log: it never repeats a word of the phrase. `hint` (the closest
/// words) is meant for the person typing and reveals what they mistyped: show it, don't log it.
public enum MnemonicError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Entropy must be 16, 20, 24, 28 or 32 bytes (128 to 256 bits in steps of 32).
    case invalidEntropyLength(Int)
    /// A phrase has 12, 15, 18, 21 or 24 words.
    case invalidWordCount(Int)
    /// The word at `position` (1-based) is not in the list; `suggestions` are the list's words
    /// closest to it, best first (sharing the longest prefix, then fewest edits).
    case unknownWord(word: String, position: Int, suggestions: [String])
    /// Every word is valid but the checksum bits disagree with the entropy: a word is wrong or
    /// two are swapped.
    case checksumMismatch

    public var description: String {
        switch self {
        case .invalidEntropyLength(let count):
            "mnemonic entropy must be 16, 20, 24, 28 or 32 bytes, got \(count)"
        case .invalidWordCount(let count):
            "a mnemonic has 12, 15, 18, 21 or 24 words, got \(count)"
        case .unknownWord(_, let position, _):
            "word \(position) is not in the BIP39 English word list"
        case .checksumMismatch:
            "the mnemonic's checksum does not match: a word is wrong or out of order"
        }
    }

    /// For an unknown word: "did you mean …?" with the suggestions; nil otherwise.
    public var hint: String? {
        guard case .unknownWord(_, _, let suggestions) = self, !suggestions.isEmpty else {
            return nil
        }
        return "did you mean \(suggestions.joined(separator: ", "))?"
    }
}
