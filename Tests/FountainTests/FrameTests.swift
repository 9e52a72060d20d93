import Testing

@testable import Fountain

/// Tender binary frames: layout, refusal of foreign, corrupted, truncated and oversized frames.
struct FrameTests {
    @Test func layout() throws {
        let message = makeMessage(5000)
        var encoder = try FrameEncoder(message: message)
        #expect(encoder.frameCount == 3)
        #expect(encoder.fragmentLength == 1667)
        let frame = encoder.nextFrame()
        #expect(frame.count == FrameFormat.headerLength + 1667)
        #expect(Array(frame[0..<3]) == [0x54, 0x46, 0x01])
        #expect(BigEndian.uint32(frame, at: 3) == CRC32.checksum(message))
        #expect(BigEndian.uint32(frame, at: 7) == 5000)
        #expect(BigEndian.uint16(frame, at: 11) == 3)
        #expect(BigEndian.uint32(frame, at: 13) == 1)
        #expect(BigEndian.uint32(frame, at: 17) == CRC32.checksum(frame[0..<17] + frame[21...]))
        #expect(Array(frame[21...]) == Array(message[0..<1667]))
        // A full-size fragment fills a level-M QR code exactly.
        var full = try FrameEncoder(message: makeMessage(10_000))
        #expect(
            full.frameCount == 5 && full.nextFrame().count <= FrameFormat.qrBinaryCapacityLevelM)
        #expect(FrameFormat.defaultFragmentLength == 2310)
    }

    @Test func singleFrameMessage() throws {
        var encoder = try FrameEncoder(message: [42])
        var decoder = FrameDecoder()
        let progress = try decoder.receive(encoder.nextFrame())
        #expect(progress.complete == [42] && decoder.message == [42] && progress.fraction == 1)
    }

    @Test func encoderRefusesBadArguments() {
        #expect(
            expectError(.invalidArgument) { () throws(FountainError) in
                try FrameEncoder(message: [])
            } != nil)
        #expect(
            expectError(.invalidArgument) { () throws(FountainError) in
                try FrameEncoder(message: [1], fragmentLength: 0)
            } != nil)
        #expect(
            expectError(.messageTooLarge) { () throws(FountainError) in
                try FrameEncoder(message: makeMessage(70_000), fragmentLength: 1)
            } != nil)
    }

    @Test func refusesMixedSequences() throws {
        let message = makeMessage(10_000)
        var encoder = try FrameEncoder(message: message, fragmentLength: 1000)
        var decoder = FrameDecoder()
        _ = try decoder.receive(encoder.nextFrame())
        _ = try decoder.receive(encoder.nextFrame())
        let before = decoder.progress
        let otherMessage = try FrameEncoder(
            message: makeMessage(10_000, seed: "Other"), fragmentLength: 1000)
        let otherSplit = try FrameEncoder(message: message, fragmentLength: 999)
        let otherLength = try FrameEncoder(message: Array(message.dropLast()), fragmentLength: 1000)
        for var other in [otherMessage, otherSplit, otherLength] {
            let frame = other.nextFrame()
            let error = expectError(.mixedSequence) { () throws(FountainError) in
                try decoder.receive(frame)
            }
            #expect(error != nil)
            #expect(error?.message.hasPrefix("part of another sequence") == true)
        }
        #expect(decoder.progress == before)
        while decoder.message == nil { _ = try decoder.receive(encoder.nextFrame()) }
        #expect(decoder.message == message)
    }

    @Test func refusesCorruptedFrames() throws {
        var encoder = try FrameEncoder(message: makeMessage(3000), fragmentLength: 1000)
        var decoder = FrameDecoder()
        let frame = encoder.nextFrame()
        // Every single-byte change after the magic and version is caught.
        for position in [3, 8, 12, 16, 18, 21, 500, frame.count - 1] {
            var bad = frame
            bad[position] ^= 0x40
            #expect(throws: FountainError.self) { try decoder.receive(bad) }
        }
        var payload = frame
        payload[700] ^= 1
        #expect(
            expectError(.checksumMismatch) { () throws(FountainError) in
                try decoder.receive(payload)
            } != nil)
        var magic = frame
        magic[0] = 0x55
        #expect(
            expectError(.unsupportedFormat) { () throws(FountainError) in try decoder.receive(magic)
            } != nil)
        var version = frame
        version[2] = 2
        #expect(
            expectError(.unsupportedFormat) { () throws(FountainError) in
                try decoder.receive(version)
            } != nil)
        #expect(
            decoder.progress.receivedFrameCount == 0 && decoder.progress.expectedFrameCount == nil)
        #expect(try decoder.receive(frame).receivedFrameCount == 1)
    }

    @Test func refusesTruncatedAndOverlongFrames() throws {
        var encoder = try FrameEncoder(message: makeMessage(3000), fragmentLength: 1000)
        var decoder = FrameDecoder()
        let frame = encoder.nextFrame()
        for length in [0, 2, 10, 20, 21, 22, frame.count - 1] {
            #expect(
                expectError(.truncated) { () throws(FountainError) in
                    try decoder.receive(Array(frame.prefix(length)))
                } != nil, "\(length)")
        }
        #expect(
            expectError(.invalidPart) { () throws(FountainError) in try decoder.receive(frame + [0])
            } != nil)
    }

    @Test func refusesOversizedDeclarationsBeforeAllocating() throws {
        // A 21-byte frame declaring a 4 GiB message in one fragment: refused by size, not CRC.
        var header: [UInt8] = FrameFormat.magic + [FrameFormat.version]
        BigEndian.append(UInt32(0xDEAD_BEEF), to: &header)
        BigEndian.append(UInt32.max, to: &header)
        BigEndian.append(UInt16(1), to: &header)
        BigEndian.append(UInt32(1), to: &header)
        BigEndian.append(UInt32(0), to: &header)
        var decoder = FrameDecoder()
        #expect(
            expectError(.messageTooLarge) { () throws(FountainError) in try decoder.receive(header)
            } != nil)
        // Within the byte limit but above the fragment-count limit.
        var small = FrameDecoder(limits: FountainLimits(maxFragmentCount: 4))
        var encoder = try FrameEncoder(message: makeMessage(100), fragmentLength: 10)
        #expect(
            expectError(.messageTooLarge) { () throws(FountainError) in
                try small.receive(encoder.nextFrame())
            } != nil)
        var tight = FrameDecoder(limits: FountainLimits(maxMessageLength: 99))
        #expect(
            expectError(.messageTooLarge) { () throws(FountainError) in
                try tight.receive(encoder.nextFrame())
            } != nil)
    }

    @Test func duplicatesAreIgnored() throws {
        let message = makeMessage(8000)
        var encoder = try FrameEncoder(message: message, fragmentLength: 1000)
        var decoder = FrameDecoder()
        let frames = (0..<8).map { _ in encoder.nextFrame() }
        for frame in frames.prefix(7) {
            let first = try decoder.receive(frame)
            let again = try decoder.receive(frame)
            #expect(again.usefulPartCount == first.usefulPartCount)
            #expect(again.receivedFrameCount == first.receivedFrameCount + 1)
        }
        #expect(decoder.message == nil)
        #expect(try decoder.receive(frames[7]).complete == message)
        #expect(try decoder.receive(frames[0]).complete == message)
    }

    @Test func heldRowsNeverExceedTheFragmentCount() throws {
        // Only mixed frames, many of them redundant: what is held stays at most seqLen rows.
        let message = makeMessage(20_000)
        var encoder = try FrameEncoder(message: message, fragmentLength: 200)
        for _ in 0..<encoder.frameCount { _ = encoder.nextFrame() }  // skip the simple frames
        var decoder = FountainDecoder()
        var frames = 0
        while decoder.message == nil && frames < 2000 {
            let frame = encoder.nextFrame()
            let fragment = Array(frame[21...])
            let seqNum = BigEndian.uint32(frame, at: 13)
            let shape = try FountainDecoder.shape(
                seqNum: seqNum, seqLen: 100, messageLength: 20_000,
                checksum: encoder.messageID, fragmentLength: fragment.count, limits: decoder.limits)
            try decoder.receive(seqNum: seqNum, shape: shape, data: fragment)
            try decoder.receive(seqNum: seqNum, shape: shape, data: fragment)
            #expect(decoder.rank <= 100)
            frames += 1
        }
        #expect(decoder.message == message)
        // The repeat after completion is not counted.
        #expect(decoder.receivedPartCount == 2 * frames - 1)
        // Elimination needs barely more than seqLen useful frames even without simple ones.
        #expect(frames < 130)
    }
}
