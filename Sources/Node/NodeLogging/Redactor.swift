import Keystore

/// Takes secrets out of log text before it is written: the node's own secrets by value (the
/// API token; a private key never prints, its description is redacted), and by shape what no log should hold: a run of BIP39 words as
/// long as a recovery phrase, and a blob too long to be an id, address or signature (a
/// note, a payment or a key file in hex or base64). Ids of 32 bytes stay: they are what an
/// operator follows through the logs.
public struct Redactor: Sendable {
    private let secrets: [String]
    /// Hex or base64 runs longer than a 65-byte signature in hex are blobs.
    static let longestPlainRun = 132
    /// Twelve words is the shortest BIP39 phrase.
    static let shortestPhrase = 12
    private static let words = Set(Mnemonic.wordList)

    /// `secrets`: exact strings never to write (empty ones are ignored).
    public init(secrets: [String] = []) {
        self.secrets = secrets.filter { $0.count >= 8 }
    }

    public func scrub(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: "[redacted]")
        }
        return Self.withoutPhrases(Self.withoutBlobs(result))
    }

    /// Replaces each run of hex or base64 characters longer than `longestPlainRun`.
    static func withoutBlobs(_ text: String) -> String {
        var output = ""
        var run = ""
        func flush() {
            output += run.count > longestPlainRun ? "[redacted \(run.count) chars]" : run
            run = ""
        }
        for character in text {
            if character.isASCII && (character.isLetter || character.isNumber)
                || "+/=_-".contains(character)
            {
                run.append(character)
            } else {
                flush()
                output.append(character)
            }
        }
        flush()
        return output
    }

    /// Replaces each run of at least `shortestPhrase` BIP39 words (whatever separates them).
    static func withoutPhrases(_ text: String) -> String {
        let tokens = text.split(separator: " ", omittingEmptySubsequences: false)
        guard tokens.count >= shortestPhrase else { return text }
        var output: [Substring] = []
        var index = 0
        while index < tokens.count {
            var end = index
            while end < tokens.count, words.contains(tokens[end].lowercased()) { end += 1 }
            if end - index >= shortestPhrase {
                output.append("[redacted phrase]")
                index = end
            } else {
                // Every later start inside a short run is shorter still: past it at once.
                let next = max(end, index + 1)
                output += tokens[index..<next]
                index = next
            }
        }
        return output.joined(separator: " ")
    }
}
