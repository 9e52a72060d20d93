import Testing

@testable import Keystore

@Suite struct WordListTests {
    /// english.txt is one word a line with a trailing newline; its published SHA-256 (as shipped
    /// in PyPI's `mnemonic` 0.21 and bitcoin/bips) pins every word and its order.
    @Test func matchesThePublishedFileDigest() {
        let file = Mnemonic.wordList.joined(separator: "\n") + "\n"
        #expect(
            hex(sha256(Array(file.utf8)))
                == "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda")
    }

    @Test func hasTheShapeBIP39Promises() {
        let words = Mnemonic.wordList
        #expect(words.count == 2048)
        // Sorted (binary search relies on it), lowercase ASCII, unique in the first 4 letters.
        #expect(words == words.sorted())
        #expect(words.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isLowercase } })
        #expect(Set(words.map { $0.prefix(4) }).count == 2048)
    }

    @Test func findsEveryWordAtItsIndex() {
        for (index, word) in Mnemonic.wordList.enumerated() {
            #expect(WordList.index(of: word) == index)
        }
        #expect(WordList.index(of: "abandn") == nil)
        #expect(WordList.index(of: "") == nil)
        #expect(WordList.index(of: "zzz") == nil)
    }

    @Test func completesAWordCutShort() {
        #expect(WordList.suggestions(for: "aban") == ["abandon"])
        #expect(WordList.suggestions(for: "zo") == ["zone", "zoo"])
        #expect(WordList.suggestions(for: "a").count == 4)
    }

    @Test func suggestsWordsWithinTwoEdits() {
        #expect(WordList.suggestions(for: "abandn").first == "abandon")
        // Transpositions count as one edit.
        #expect(WordList.suggestions(for: "wrold").first == "world")
        #expect(WordList.suggestions(for: "abuot").first == "about")
        #expect(WordList.suggestions(for: "zebar").first == "zebra")
        // Among equal distances, a longer shared prefix first.
        #expect(WordList.suggestions(for: "lemom").first == "lemon")
        #expect(WordList.suggestions(for: "1234").isEmpty)
        #expect(WordList.suggestions(for: "").isEmpty)
    }
}
