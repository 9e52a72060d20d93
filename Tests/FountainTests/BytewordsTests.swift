import Testing

@testable import Fountain

/// Bytewords against bc-ur test/test.cpp (test_bytewords_1, test_bytewords_2).
struct BytewordsTests {
    let input: [UInt8] = [0, 1, 2, 128, 255]

    @Test func encodesAllStyles() {
        #expect(
            Bytewords.encode(input, style: .standard)
                == "able acid also lava zoom jade need echo taxi")
        #expect(
            Bytewords.encode(input, style: .uri) == "able-acid-also-lava-zoom-jade-need-echo-taxi")
        #expect(Bytewords.encode(input, style: .minimal) == "aeadaolazmjendeoti")
    }

    @Test func decodesAllStyles() throws {
        #expect(
            try Bytewords.decode("able acid also lava zoom jade need echo taxi", style: .standard)
                == input)
        #expect(
            try Bytewords.decode("able-acid-also-lava-zoom-jade-need-echo-taxi", style: .uri)
                == input)
        #expect(try Bytewords.decode("aeadaolazmjendeoti", style: .minimal) == input)
        #expect(try Bytewords.decode("AEADAOLAZMJENDEOTI", style: .minimal) == input)
        #expect(
            try Bytewords.decode("Able Acid Also Lava Zoom Jade Need Echo Taxi", style: .standard)
                == input)
    }

    @Test func refusesBadChecksum() {
        #expect(
            expectError(.checksumMismatch) { () throws(FountainError) in
                try Bytewords.decode(
                    "able acid also lava zero jade need echo wolf", style: .standard)
            } != nil)
        #expect(
            expectError(.checksumMismatch) { () throws(FountainError) in
                try Bytewords.decode("able-acid-also-lava-zero-jade-need-echo-wolf", style: .uri)
            } != nil)
        #expect(
            expectError(.checksumMismatch) { () throws(FountainError) in
                try Bytewords.decode("aeadaolazojendeowf", style: .minimal)
            } != nil)
    }

    @Test func refusesTooShortAndMalformed() {
        #expect(
            expectError(.truncated) { () throws(FountainError) in
                try Bytewords.decode("wolf", style: .standard)
            } != nil)
        #expect(
            expectError(.invalidBytewords) { () throws(FountainError) in
                try Bytewords.decode("", style: .standard)
            } != nil)
        #expect(
            expectError(.truncated) { () throws(FountainError) in
                try Bytewords.decode("", style: .minimal)
            } != nil)
        // Odd length, unknown pair, unknown word, wrong separator, misspelt middle letters.
        #expect(
            expectError(.invalidBytewords) { () throws(FountainError) in
                try Bytewords.decode("aeadaolazmjendeot", style: .minimal)
            } != nil)
        #expect(
            expectError(.invalidBytewords) { () throws(FountainError) in
                try Bytewords.decode("aeadaolazmjendeoxx", style: .minimal)
            } != nil)
        #expect(
            expectError(.invalidBytewords) { () throws(FountainError) in
                try Bytewords.decode(
                    "able acid also lava zoom jade need echo taxy", style: .standard)
            } != nil)
        #expect(
            expectError(.invalidBytewords) { () throws(FountainError) in
                try Bytewords.decode(
                    "able-acid also lava zoom jade need echo taxi", style: .standard)
            } != nil)
        #expect(
            expectError(.invalidBytewords) { () throws(FountainError) in
                try Bytewords.decode(
                    "abxe acid also lava zoom jade need echo taxi", style: .standard)
            } != nil)
        #expect(
            expectError(.invalidBytewords) { () throws(FountainError) in
                try Bytewords.decode("ae ad", style: .standard)
            } != nil)
    }

    @Test func hundredBytes() throws {
        let data = BCURVectors.bytewordsInput100
        #expect(Bytewords.encode(data, style: .standard) == BCURVectors.bytewordsStandard100)
        #expect(Bytewords.encode(data, style: .minimal) == BCURVectors.bytewordsMinimal100)
        #expect(try Bytewords.decode(BCURVectors.bytewordsStandard100, style: .standard) == data)
        #expect(try Bytewords.decode(BCURVectors.bytewordsMinimal100, style: .minimal) == data)
    }

    @Test func everyByteRoundTrips() throws {
        let all = (0...255).map { UInt8($0) }
        for style in Bytewords.Style.allCases {
            #expect(try Bytewords.decode(Bytewords.encode(all, style: style), style: style) == all)
        }
    }
}
