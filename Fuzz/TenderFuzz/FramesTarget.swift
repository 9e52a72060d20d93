import Fountain

/// Tender binary frames: sequences of frames fed to one `FrameDecoder`.
///
/// Byte 0 picks the mode. Bit 0 set: a message (from the input) is encoded with
/// `FrameEncoder`, then its frames are dropped, repeated, reordered or altered as the input
/// says. Clear: the rest is raw frames, length-prefixed; with bit 1 set each frame's CRC is
/// repaired first, so mutations get past it into the fountain decoder.
enum FramesTarget {
    static let frames = FuzzTarget(
        name: "frames",
        summary: "FrameDecoder over raw and encoder-made frames; refusals change nothing",
        run: checkFrames, oversizeCheck: framesOversize)

    static func checkFrames(_ bytes: [UInt8]) {
        var reader = ByteReader(bytes[...])
        let mode = reader.byte()
        if mode & 1 == 1 {
            encodedFrames(&reader)
        } else {
            var decoder = FrameDecoder()
            for var frame in reader.lengthPrefixedPieces() {
                if mode & 2 != 0 { repairCRC(&frame) }
                _ = receive(frame, into: &decoder)
            }
        }
    }

    private static func encodedFrames(_ reader: inout ByteReader) {
        let requestedLength = Int(reader.byte()) + 1
        let extraFrames = Int(reader.byte() % 16)
        let edits = (0..<Int(reader.byte() % 8)).map { _ in PartEdit(&reader) }
        let message = Array(reader.rest.prefix(512))
        // At most 32 fragments: enough to exercise elimination, cheap enough to run millions.
        let fragmentLength = max(requestedLength, (message.count + 31) / 32)
        guard !message.isEmpty,
            var encoder = try? FrameEncoder(message: message, fragmentLength: fragmentLength)
        else { return }
        var frames = (0..<(encoder.frameCount + extraFrames)).map { _ in encoder.nextFrame() }
        let dropsNone = !edits.contains { $0.operation == .drop }
        let altered = edits.contains { $0.operation == .alter }
        PartEdit.apply(edits, to: &frames) { frame, edit in
            frame[edit.position % frame.count] = edit.value
            repairCRC(&frame)
        }
        var decoder = FrameDecoder()
        for frame in frames {
            let accepted = receive(frame, into: &decoder)
            require(accepted || altered, "an unaltered frame of the encoder was refused")
        }
        guard !altered else { return }
        if dropsNone {
            require(decoder.message != nil, "every frame was given but the message is incomplete")
        }
        if let complete = decoder.message {
            require(complete == message, "the decoder completed with another message")
        }
    }

    /// Feeds one frame and checks what `FrameDecoder` promises: a refused frame leaves the
    /// decoder as it was (a failed message checksum resets it), and a complete message has
    /// the length and CRC32 its frames declare. True when the frame was accepted.
    private static func receive(_ frame: [UInt8], into decoder: inout FrameDecoder) -> Bool {
        let before = decoder.progress
        do throws(FountainError) {
            let progress = try decoder.receive(frame)
            require(progress == decoder.progress, "returned progress is not the decoder's")
            require((0...1).contains(progress.fraction), "fraction \(progress.fraction)")
            require(
                progress.usefulPartCount <= progress.expectedFrameCount ?? 0,
                "more useful frames than fragments")
            require(
                progress.receivedFrameCount >= before.receivedFrameCount,
                "the received count went down")
            if let message = progress.complete {
                require(progress.fraction == 1, "complete at fraction \(progress.fraction)")
                require(
                    message.count == Int(bigEndian32(frame, at: 7)),
                    "complete message of \(message.count) bytes, frames declare another length")
                require(
                    HarnessCRC32.checksum(message[...]) == bigEndian32(frame, at: 3),
                    "complete message fails the CRC32 its frames carry")
            }
            return true
        } catch {
            let expected = error.kind == .messageChecksumMismatch ? FrameDecoder().progress : before
            require(decoder.progress == expected, "refused frame (\(error)) changed the decoder")
            return false
        }
    }

    /// Rewrites the CRC at bytes 17..<21 over the header before it and the fragment after.
    static func repairCRC(_ frame: inout [UInt8]) {
        guard frame.count >= FrameFormat.headerLength else { return }
        let crc = HarnessCRC32.checksum(frame[0..<17], frame[FrameFormat.headerLength...])
        for index in 0..<4 {
            frame[17 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index))
        }
    }

    private static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }

    /// Frames declaring or carrying more than the 1 MiB message limit.
    static func framesOversize() {
        let cap = FountainLimits.standard.maxMessageLength
        // Declares 4 MiB in one fragment, carries 2 MiB: refused on the declaration.
        var frame = FrameFormat.magic + [FrameFormat.version, 0, 0, 0, 0]
        frame += EnvelopeTarget.bigEndian32(4 * cap) + [0, 1] + [0, 0, 0, 1, 0, 0, 0, 0]
        frame += [UInt8](repeating: 0, count: 2 * cap)
        repairCRC(&frame)
        AllocationMeter.requireAtMost(cap, "frame declaring \(4 * cap) bytes") {
            var decoder = FrameDecoder()
            do throws(FountainError) {
                _ = try decoder.receive(frame)
                require(false, "a frame declaring \(4 * cap) bytes was accepted")
            } catch {
                require(error.kind == .messageTooLarge, "oversized frame refused with \(error)")
            }
        }
    }
}
