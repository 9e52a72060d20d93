/// Look-ups in the BIP39 English word list.
enum WordList {
    static let words = englishWordList

    /// The word's 11-bit index, by binary search: the list is sorted (BIP39 requires it, and
    /// `WordListTests` checks it), and ASCII compares the same in Swift and in the file.
    static func index(of word: String) -> Int? {
        var low = 0
        var high = words.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let candidate = words[middle]
            if candidate == word { return middle }
            if candidate < word { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }

    /// Up to `limit` words closest to a mistyped one. A correct start that was cut short
    /// ("aban") gets the words it begins; otherwise words within two edits (a transposition
    /// counts as one), the ones sharing a longer prefix first: typos rarely hit the first letters.
    static func suggestions(for typed: String, limit: Int = 4) -> [String] {
        guard !typed.isEmpty else { return [] }
        let completions = words.filter { $0.hasPrefix(typed) }
        if !completions.isEmpty { return Array(completions.prefix(limit)) }
        let typedLetters = Array(typed.unicodeScalars)
        return
            words
            .map { word -> (word: String, distance: Int, prefix: Int) in
                let letters = Array(word.unicodeScalars)
                return (
                    word, editDistance(letters, typedLetters),
                    commonPrefixLength(letters, typedLetters)
                )
            }
            .filter { $0.distance <= 2 }
            .sorted { ($0.distance, -$0.prefix, $0.word) < ($1.distance, -$1.prefix, $1.word) }
            .prefix(limit)
            .map(\.word)
    }

    private static func commonPrefixLength(
        _ left: [Unicode.Scalar], _ right: [Unicode.Scalar]
    ) -> Int {
        zip(left, right).prefix { $0 == $1 }.count
    }

    /// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions) over Unicode
    /// scalars; words are at most eight letters, so the full table is cheap.
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(
                    table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
