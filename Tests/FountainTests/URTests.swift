import Testing

@testable import Fountain

/// UR text and the UR encoder/decoder against bc-ur test/test.cpp (test_single_part_ur,
/// test_ur_encoder, test_multipart_ur), plus refusal of bad input.
struct URTests {
    @Test func singlePart() throws {
        let ur = try makeMessageUR(50)
        #expect(UREncoder.encode(ur) == BCURVectors.singlePartUR50)
        #expect(try UR(parsing: BCURVectors.singlePartUR50) == ur)
        #expect(try UR(parsing: BCURVectors.singlePartUR50.uppercased()) == ur)
        var decoder = URDecoder()
        let progress = try decoder.receive(BCURVectors.singlePartUR50)
        #expect(
            progress.complete == ur && progress.fraction == 1 && progress.expectedPartCount == 1)
        var encoder = UREncoder(ur: ur, maxFragmentLength: 1000)
        #expect(encoder.isSinglePart && encoder.seqLen == 1)
        #expect(encoder.nextPart() == BCURVectors.singlePartUR50)
    }

    @Test func encoderMatchesVectors() throws {
        var encoder = UREncoder(ur: try makeMessageUR(256), maxFragmentLength: 30)
        #expect(!encoder.isSinglePart && encoder.seqLen == 9)
        let parts = (0..<20).map { _ in encoder.nextPart() }
        #expect(parts == BCURVectors.urParts256)
    }

    @Test func partsAreQRAlphanumeric() throws {
        var encoder = UREncoder(ur: try makeMessageUR(256), maxFragmentLength: 30)
        let alphanumeric = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
        for _ in 0..<20 {
            #expect(encoder.nextPart().uppercased().allSatisfy { alphanumeric.contains($0) })
        }
    }

    @Test func decodesVectorParts() throws {
        let ur = try makeMessageUR(256)
        // All 20 in reverse order (mixed parts first), upper case.
        var decoder = URDecoder()
        var last: URDecoder.Progress?
        for part in BCURVectors.urParts256.reversed() {
            last = try decoder.receive(part.uppercased())
        }
        #expect(last?.complete == ur)
        #expect(decoder.result == ur)
        // Only the nine simple parts, in order.
        var simple = URDecoder()
        for (index, part) in BCURVectors.urParts256.prefix(9).enumerated() {
            let progress = try simple.receive(part)
            #expect(progress.expectedPartCount == 9)
            #expect(progress.usefulPartCount == index + 1)
            #expect((progress.complete != nil) == (index == 8))
        }
        #expect(simple.result == ur)
    }

    @Test func multipartLargeMessage() throws {
        // bc-ur test_multipart_ur: 32,767 bytes, max fragment 1,000, first seqNum 100.
        let ur = try makeMessageUR(32767)
        var encoder = UREncoder(ur: ur, maxFragmentLength: 1000, firstSeqNum: 100)
        var decoder = URDecoder()
        var sent = 0
        while decoder.result == nil && sent < 1000 {
            _ = try decoder.receive(encoder.nextPart())
            sent += 1
        }
        #expect(decoder.result == ur)
    }

    @Test func refusesMalformedText() {
        var decoder = URDecoder()
        let cases: [(String, FountainError.Kind)] = [
            ("bytes/aeadaolazmjendeoti", .invalidUR),
            ("ur:aeadaolazmjendeoti", .invalidUR),
            ("ur:by_tes/aeadaolazmjendeoti", .invalidUR),
            ("ur:bytes/1-9/x/y", .invalidUR),
            ("ur:bytes//aeadaolazmjendeoti", .invalidUR),
            ("ur:bytes/0-9/aeadaolazmjendeoti", .invalidSequence),
            ("ur:bytes/1-/aeadaolazmjendeoti", .invalidSequence),
            ("ur:bytes/+1-9/aeadaolazmjendeoti", .invalidSequence),
            ("ur:bytes/aeadaolazmjendeot", .invalidBytewords),
            ("ur:bytes/aeadaolazojendeowf", .checksumMismatch),
            // A valid single-part body under a sequence component: not a part's CBOR.
            ("ur:bytes/1-9/aeadaolazmjendeoti", .invalidPart),
        ]
        for (text, kind) in cases {
            #expect(
                expectError(kind) { () throws(FountainError) in try decoder.receive(text) } != nil,
                "\(text)")
        }
        #expect(decoder.progress.receivedPartCount == 0)
    }

    @Test func refusesPartWhoseTextAndCBORDisagree() throws {
        let part = "ur:bytes/2-9/" + BCURVectors.urParts256[0].dropFirst("ur:bytes/1-9/".count)
        var decoder = URDecoder()
        #expect(
            expectError(.invalidSequence) { () throws(FountainError) in try decoder.receive(part) }
                != nil)
    }

    @Test func refusesCorruptedAndTruncatedParts() throws {
        var decoder = URDecoder()
        _ = try decoder.receive(BCURVectors.urParts256[0])
        let before = decoder.progress
        let good = BCURVectors.urParts256[1]
        // Change one minimal byteword into another valid one: only the CRC catches it.
        var letters = Array(good)
        let bodyStart = good.count - 40
        letters[bodyStart] = letters[bodyStart] == "a" ? "b" : "a"
        letters[bodyStart + 1] = "e"
        let corrupted = String(letters)
        #expect(throws: FountainError.self) { try decoder.receive(corrupted) }
        #expect(
            expectError(.invalidBytewords) { () throws(FountainError) in
                try decoder.receive(String(good.dropLast()))
            } != nil)
        #expect(
            expectError(.checksumMismatch) { () throws(FountainError) in
                try decoder.receive(String(good.dropLast(2)))
            } != nil)
        #expect(decoder.progress == before)
    }

    @Test func refusesMixedSequences() throws {
        let first = try makeMessageUR(256)
        let other = try makeMessageUR(256, seed: "Other")
        var otherEncoder = UREncoder(ur: other, maxFragmentLength: 30)
        var sameCBOROtherType = UREncoder(
            ur: try UR(type: "crypto-psbt", cbor: first.cbor), maxFragmentLength: 30)
        var otherLength = UREncoder(ur: first, maxFragmentLength: 40)
        var encoder = UREncoder(ur: first, maxFragmentLength: 30)
        var decoder = URDecoder()
        _ = try decoder.receive(encoder.nextPart())
        let before = decoder.progress
        let otherPart = otherEncoder.nextPart()
        let error = expectError(.mixedSequence) { () throws(FountainError) in
            try decoder.receive(otherPart)
        }
        #expect(error?.message.contains("checksum") == true)
        #expect(
            expectError(.mixedSequence) { () throws(FountainError) in
                try decoder.receive(sameCBOROtherType.nextPart())
            } != nil)
        #expect(
            expectError(.mixedSequence) { () throws(FountainError) in
                try decoder.receive(otherLength.nextPart())
            } != nil)
        #expect(
            expectError(.mixedSequence) { () throws(FountainError) in
                try decoder.receive(UREncoder.encode(other))
            } != nil)
        #expect(decoder.progress == before)
        while decoder.result == nil { _ = try decoder.receive(encoder.nextPart()) }
        #expect(decoder.result == first)
        // After completion: same sequence ignored, another refused.
        _ = try decoder.receive(encoder.nextPart())
        #expect(
            expectError(.mixedSequence) { () throws(FountainError) in try decoder.receive(otherPart)
            } != nil)
        #expect(decoder.result == first)
    }

    @Test func refusesOversizedMessages() throws {
        let limits = FountainLimits(maxMessageLength: 200)
        var decoder = URDecoder(limits: limits)
        var encoder = UREncoder(ur: try makeMessageUR(256), maxFragmentLength: 30)
        #expect(
            expectError(.messageTooLarge) { () throws(FountainError) in
                try decoder.receive(encoder.nextPart())
            } != nil)
        #expect(
            expectError(.messageTooLarge) { () throws(FountainError) in
                try decoder.receive(UREncoder.encode(try! makeMessageUR(256)))
            } != nil)
        var fewFragments = URDecoder(limits: FountainLimits(maxFragmentCount: 8))
        #expect(
            expectError(.messageTooLarge) { () throws(FountainError) in
                try fewFragments.receive(BCURVectors.urParts256[0])
            } != nil)
    }

    @Test func refusesInvalidTypes() {
        #expect(
            expectError(.invalidUR) { () throws(FountainError) in try UR(type: "Bytes", cbor: [0]) }
                != nil)
        #expect(
            expectError(.invalidUR) { () throws(FountainError) in try UR(type: "", cbor: [0]) }
                != nil)
        #expect(
            expectError(.invalidArgument) { () throws(FountainError) in
                try UR(type: "bytes", cbor: [])
            } != nil)
    }
}
