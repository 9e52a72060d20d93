import Testing

@testable import Fountain

/// BC-UR's building blocks against the official vectors (see BCURVectors.swift for sources).
struct FountainMathTests {
    @Test func crc32() {
        #expect(CRC32.checksum(Array("Hello, world!".utf8)) == 0xebe6_c6e6)
        #expect(CRC32.checksum(Array("Wolf".utf8)) == 0x598c_84dc)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }

    @Test func xoshiroSeededWithString() {
        var rng = Xoshiro256(string: "Wolf")
        #expect((0..<100).map { _ in rng.next() % 100 } == BCURVectors.rngWolfMod100)
    }

    @Test func xoshiroSeededWithCRC32() {
        var rng = Xoshiro256(crc32: CRC32.checksum(Array("Wolf".utf8)))
        #expect((0..<100).map { _ in rng.next() % 100 } == BCURVectors.rngCRC32WolfMod100)
    }

    @Test func xoshiroNextInt() {
        var rng = Xoshiro256(string: "Wolf")
        #expect((0..<100).map { _ in rng.nextInt(1, 10) } == BCURVectors.rngWolfNextInt1To10)
    }

    @Test func xoshiroNextDataAndXor() {
        // From bc-ur test/test.cpp, test_xor.
        var rng = Xoshiro256(string: "Wolf")
        let first = rng.nextData(10)
        let second = rng.nextData(10)
        #expect(hex(first) == "916ec65cf77cadf55cd7")
        #expect(hex(second) == "f9cda1a1030026ddd42e")
        var mixed = first
        FountainMath.xor(&mixed, second)
        #expect(hex(mixed) == "68a367fdf47c8b2888f9")
        FountainMath.xor(&mixed, first)
        #expect(mixed == second)
    }

    @Test func nominalFragmentLength() {
        #expect(
            FountainMath.nominalFragmentLength(
                messageLength: 12345, minFragmentLength: 1005, maxFragmentLength: 1955) == 1764)
        #expect(
            FountainMath.nominalFragmentLength(
                messageLength: 12345, minFragmentLength: 1005, maxFragmentLength: 30000) == 12345)
        // Shorter than the minimum: one fragment (the reference asserts here).
        #expect(
            FountainMath.nominalFragmentLength(
                messageLength: 5, minFragmentLength: 10, maxFragmentLength: 100) == 5)
    }

    @Test func randomSampler() {
        let sampler = RandomSampler(weights: [1, 2, 4, 8])
        var rng = Xoshiro256(string: "Wolf")
        #expect((0..<500).map { _ in sampler.next(using: &rng) } == BCURVectors.samplerWolf1248)
    }

    @Test func shuffle() {
        var rng = Xoshiro256(string: "Wolf")
        let results = (0..<10).map { _ in FountainMath.shuffled(Array(1...10), using: &rng) }
        #expect(results == BCURVectors.shuffleWolf)
    }

    @Test func partitionAndJoin() {
        let message = makeMessage(1024)
        let length = FountainMath.nominalFragmentLength(
            messageLength: message.count, minFragmentLength: 10, maxFragmentLength: 100)
        let fragments = FountainMath.partition(message, fragmentLength: length)
        #expect(fragments.map { hex($0) } == BCURVectors.partitionFragments1024)
        #expect(Array(fragments.joined().prefix(message.count)) == message)
    }

    @Test func chooseDegree() {
        let message = makeMessage(1024)
        let length = FountainMath.nominalFragmentLength(
            messageLength: message.count, minFragmentLength: 10, maxFragmentLength: 100)
        let count = FountainMath.partition(message, fragmentLength: length).count
        let chooser = FragmentChooser(seqLen: count, checksum: 0)
        let degrees = (1...200).map { nonce -> Int in
            var rng = Xoshiro256(string: "Wolf-\(nonce)")
            return chooser.chooseDegree(using: &rng)
        }
        #expect(degrees == BCURVectors.degreesWolf)
    }

    @Test func chooseFragments() {
        let message = makeMessage(1024)
        let length = FountainMath.nominalFragmentLength(
            messageLength: message.count, minFragmentLength: 10, maxFragmentLength: 100)
        let count = FountainMath.partition(message, fragmentLength: length).count
        let chooser = FragmentChooser(seqLen: count, checksum: CRC32.checksum(message))
        let indexes = (1...30).map { chooser.indexes(seqNum: UInt32($0)) }
        #expect(indexes == BCURVectors.fragmentIndexes1024)
    }

    @Test func encoderParts() {
        // The reference derives the length from maxFragmentLen 30 and min 10: 256 / 9 -> 29.
        let length = FountainMath.nominalFragmentLength(
            messageLength: 256, minFragmentLength: 10, maxFragmentLength: 30)
        #expect(length == 29)
        var encoder = FountainEncoder(message: makeMessage(256), fragmentLength: length)
        let parts = (0..<20).map { _ -> String in
            let part = encoder.nextPart()
            return
                "seqNum:\(part.seqNum), seqLen:\(part.seqLen), messageLen:\(part.messageLength), "
                + "checksum:\(part.checksum), data:\(hex(part.data))"
        }
        #expect(parts == BCURVectors.encoderParts256)
    }

    @Test func encoderPartsCBOR() {
        var encoder = FountainEncoder(message: makeMessage(256), fragmentLength: 29)
        let parts = (0..<20).map { _ in hex(encoder.nextPart().cbor) }
        #expect(parts == BCURVectors.encoderPartsCBOR256)
    }

    @Test func partCBORRoundTrip() throws {
        let part = FountainPart(
            seqNum: 12, seqLen: 8, messageLength: 40, checksum: 0x1234_5678, data: [1, 5, 3, 3, 5])
        let (seqNum, shape, data) = try FountainPart.decode(cbor: part.cbor, limits: .standard)
        #expect(seqNum == 12 && data == part.data)
        #expect(
            shape
                == FountainDecoder.Shape(
                    seqLen: 8, messageLength: 40, checksum: 0x1234_5678, fragmentLength: 5))
        // The reference's own example, [12, 8, 100, …, 5 bytes], cannot hold its message.
        let inconsistent = FountainPart(
            seqNum: 12, seqLen: 8, messageLength: 100, checksum: 0x1234_5678, data: [1, 5, 3, 3, 5])
        #expect(
            expectError(.invalidPart) { () throws(FountainError) in
                try FountainPart.decode(cbor: inconsistent.cbor, limits: .standard)
            } != nil)
    }

    @Test func fountainDecoderLargeMessage() throws {
        // bc-ur test_fountain_decoder: 32,767 bytes, max fragment 1,000, first seqNum 100.
        let message = makeMessage(32767)
        let length = FountainMath.nominalFragmentLength(
            messageLength: message.count, minFragmentLength: 10, maxFragmentLength: 1000)
        var encoder = FountainEncoder(message: message, fragmentLength: length, firstSeqNum: 100)
        var decoder = FountainDecoder()
        var sent = 0
        while decoder.message == nil && sent < 1000 {
            let part = encoder.nextPart()
            let shape = try FountainDecoder.shape(
                seqNum: part.seqNum, seqLen: UInt64(part.seqLen),
                messageLength: UInt64(part.messageLength),
                checksum: part.checksum, fragmentLength: part.data.count, limits: .standard)
            try decoder.receive(seqNum: part.seqNum, shape: shape, data: part.data)
            sent += 1
        }
        #expect(decoder.message == message)
    }
}
