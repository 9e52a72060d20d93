import Testing

@testable import Fountain

/// Findings of the `ur` fuzz target (Fuzz/TenderFuzz, Docs/FUZZING.md), kept as regressions.
/// How much memory a refusal takes is checked by the target itself, in the fuzzing build.
@Suite struct URFuzzRegressionTests {
    /// 8 MiB of UR text was lower-cased whole (an 8 MiB copy) before its body was found to be
    /// over the 1 MiB limit. The body is now measured where it lies, and refused by its size.
    @Test func bodyOverTheLimitIsRefusedBeforeItIsRead() {
        let body = Bytewords.encode([UInt8](repeating: 0, count: 4 << 20), style: .minimal)
        #expect(
            expectError(.messageTooLarge) { () throws(FountainError) in
                try UR(parsing: "ur:bytes/" + body)
            } != nil)
        var decoder = URDecoder()
        #expect(
            expectError(.messageTooLarge) { () throws(FountainError) in
                try decoder.receive("UR:BYTES/1-1/" + body.uppercased())
            } != nil)
        #expect(decoder.progress.receivedPartCount == 0)
    }

    /// Every "/" (and every "-" of the sequence) became its own substring: 1 MiB of them made an
    /// array of a million. Splitting now stops at the first piece too many.
    @Test func manySeparatorsAreRefusedWithoutSplittingThemAll() {
        let slashes = "ur:" + String(repeating: "/", count: 1 << 20)
        #expect(
            expectError(.invalidUR) { () throws(FountainError) in try UR(parsing: slashes) } != nil)
        let hyphens = "ur:bytes/1" + String(repeating: "-1", count: 1 << 19) + "/aeadaolazmjendeoti"
        var decoder = URDecoder()
        #expect(
            expectError(.invalidSequence) { () throws(FountainError) in
                try decoder.receive(hyphens)
            } != nil)
    }

    /// Unicode lower-casing turned the Kelvin sign (U+212A) into "k", so text with it in place
    /// of a Bytewords letter was read as valid UR. Only ASCII letters fold now.
    @Test func onlyASCIILettersFold() throws {
        let text = BCURVectors.singlePartUR50
        let kelvin = text.replacingOccurrences(of: "k", with: "\u{212A}", maxOccurrences: 1)
        #expect(kelvin != text)
        #expect(
            expectError(.invalidBytewords) { () throws(FountainError) in try UR(parsing: kelvin) }
                != nil)
        let kelvinType = "ur:\u{212A}ey/aeadaolazmjendeoti"
        #expect(
            expectError(.invalidUR) { () throws(FountainError) in try UR(parsing: kelvinType) }
                != nil)
        #expect(try UR(parsing: text.uppercased()) == UR(parsing: text))
    }
}

extension String {
    /// `self` with the first `maxOccurrences` of `target` replaced (no Foundation).
    fileprivate func replacingOccurrences(
        of target: Character, with replacement: String, maxOccurrences: Int
    ) -> String {
        var result = ""
        var left = maxOccurrences
        for character in self {
            if character == target, left > 0 {
                result += replacement
                left -= 1
            } else {
                result.append(character)
            }
        }
        return result
    }
}
