import Fountain
import QR
import TenderTestSupport
import Testing

@testable import Scanning

/// Real encode, real pixels, real zbar: payloads shown as (animated) codes come back whole.
@Suite struct ScanningTests {
    func payload(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    /// Shows `payload` as an animated code and scans the loop from `start`, dropping the
    /// frames `drop` picks, until the payload comes back; returns the frames shown.
    func transfer(
        _ payload: [UInt8], encoding: AnimatedCode.Encoding, fragmentLength: Int,
        start: Int, drop: (Int) -> Bool
    ) throws -> Int {
        var code = try AnimatedCode(
            payload: payload, encoding: encoding, fragmentLength: fragmentLength)
        for _ in 0..<start { _ = code.nextCode() }
        let pipeline = ScanPipeline()
        for shown in 1...(code.frameCount * 6) {
            let matrix = try code.nextMatrix()
            if drop(shown) { continue }
            let image = matrix.rasterize(scale: 2, border: 4)
            for event in pipeline.process(image) {
                if case .payload(let received) = event {
                    #expect(received == payload)
                    return shown
                }
                if case .rejected(let why) = event { Issue.record("rejected: \(why)") }
            }
        }
        Issue.record("the payload never assembled")
        return 0
    }

    @Test(arguments: AnimatedCode.Encoding.allCases)
    func animatedCodesSurviveLossAndAJoinMidLoop(_ encoding: AnimatedCode.Encoding) throws {
        let message = payload(6_000, seed: 7)
        var generator = SeededGenerator(seed: 11)
        let shown = try transfer(
            message, encoding: encoding, fragmentLength: 600, start: 3,
            drop: { _ in generator.next() % 5 == 0 })  // 20 % of frames lost
        #expect(shown > 0)
    }

    @Test func urPartsUseTheDenserAlphanumericMode() throws {
        var code = try AnimatedCode(payload: payload(5_000, seed: 9), encoding: .ur)
        let part = String(decoding: code.nextCode(), as: UTF8.self)
        #expect(part.hasPrefix("UR:TENDER/"))
        // A full-size part is too long for byte mode, and fits in alphanumeric mode.
        #expect(part.utf8.count > QRErrorCorrection.medium.binaryCapacity)
        #expect(throws: QRError.self) { try QREncoder.encode(Array(part.utf8)) }
        let dense = try QREncoder.encode(segmentedText: part)
        #expect(QRScanner().scan(dense.rasterize(scale: 2)) == [Array(part.utf8)])
        // And a short part takes a smaller symbol than the same text in byte mode.
        var small = try AnimatedCode(
            payload: payload(5_000, seed: 9), encoding: .ur, fragmentLength: 300)
        let short = String(decoding: small.nextCode(), as: UTF8.self)
        #expect(
            try QREncoder.encode(segmentedText: short).size
                < QREncoder.encode(Array(short.utf8)).size)
    }

    /// The default fragments fill a version-39 code (177 − 4 modules a side) and one byte
    /// more makes a version-40 code; zxing reads the version-39 code drawn at 2 px a module in
    /// a 720×480 frame, as a camera sees a loop from `--frames-out`.
    @Test(arguments: AnimatedCode.Encoding.allCases)
    func defaultFragmentsFillAVersion39Code(_ encoding: AnimatedCode.Encoding) throws {
        let length = AnimatedCode.defaultFragmentLength(encoding)
        func firstMatrix(fragment: Int) throws -> QRMatrix {
            guard encoding == .ur else {
                var code = try AnimatedCode(
                    payload: payload(fragment * 4, seed: 3), encoding: encoding,
                    fragmentLength: fragment)
                return try code.nextMatrix()
            }
            // A UR part grows with its number, the message's length and the part count
            // (CBOR integers): part 99,999 of 300, of a message over 64 kB.
            let message = payload(fragment * 300, seed: 3)
            var encoder = UREncoder(
                ur: try UR(type: ScanAssembler.urType, cbor: message),
                maxFragmentLength: fragment, firstSeqNum: 99_999)
            return try QREncoder.encode(segmentedText: encoder.nextPart().uppercased())
        }
        let matrix = try firstMatrix(fragment: length)
        #expect(matrix.size == 173)
        #expect(try firstMatrix(fragment: length + 1).size == 177)
        var code = try AnimatedCode(payload: payload(length * 4, seed: 3), encoding: encoding)
        let shown = try code.nextMatrix()
        #expect(shown.size == 173)
        let frame = try #require(VideoFrame.compose(shown, width: 720, height: 480))
        #expect(ZXingScanner().scan(frame).count == 1)
    }

    @Test func aSmallPayloadIsOneCode() throws {
        let message = payload(300, seed: 1)
        var code = try AnimatedCode(payload: message, encoding: .binary)
        #expect(code.frameCount == 1)
        #expect(code.nextCode() == message)
        let pipeline = ScanPipeline()
        let image = try QREncoder.encode(message).rasterize()
        #expect(pipeline.process(image) == [.payload(message)])
        // The same code held in view is not delivered again.
        #expect(pipeline.process(image) == [])
        #expect(pipeline.process(image) == [])
    }

    @Test func partsOfAnotherSequenceAreRefusedAndTheFirstStillAssembles() throws {
        let first = payload(3_000, seed: 3)
        let second = payload(3_000, seed: 4)
        var a = try AnimatedCode(payload: first, encoding: .binary, fragmentLength: 500)
        var b = try AnimatedCode(payload: second, encoding: .binary, fragmentLength: 500)
        var assembler = ScanAssembler()
        var rejected = 0
        var got: [UInt8]?
        for _ in 0..<(a.frameCount * 4) where got == nil {
            for event in assembler.consume(a.nextCode()) + assembler.consume(b.nextCode()) {
                if case .rejected(let why) = event {
                    rejected += 1
                    #expect(why.contains("sequence"))
                }
                if case .payload(let bytes) = event { got = bytes }
            }
        }
        #expect(got == first)
        #expect(rejected > 0)
    }

    /// A payer who restarts (a new payment, a new sequence) after the receiver caught one
    /// frame of the old one: after a few frames of the new sequence in a row the receiver
    /// drops the unfinished one and assembles the new one. A single stray frame never does.
    @Test(arguments: AnimatedCode.Encoding.allCases)
    func aSenderThatRestartsIsFollowed(encoding: AnimatedCode.Encoding) throws {
        let old = payload(3_000, seed: 6)
        let new = payload(3_000, seed: 7)
        var a = try AnimatedCode(payload: old, encoding: encoding, fragmentLength: 500)
        var b = try AnimatedCode(payload: new, encoding: encoding, fragmentLength: 500)
        var assembler = ScanAssembler()
        _ = assembler.consume(a.nextCode())
        var events: [ScanEvent] = []
        for _ in 0..<(b.frameCount * 3) where !events.contains(.payload(new)) {
            events += assembler.consume(b.nextCode())
        }
        #expect(events.contains(.payload(new)))
        let restarts = events.filter { if case .restarted = $0 { true } else { false } }
        #expect(restarts.count == 1)
        let rejections = events.filter { if case .rejected = $0 { true } else { false } }
        #expect(rejections.count == ScanAssembler.codesToSwitchSequence - 1)
    }

    @Test func textThatMerelyStartsWithTFIsAnOrdinaryCode() {
        var assembler = ScanAssembler()
        let text = Array("TFL journey planner: https://tfl.gov.uk/plan-a-journey".utf8)
        #expect(assembler.consume(text) == [.payload(text)])
    }

    @Test func corruptedFramesAreRefusedByName() throws {
        var code = try AnimatedCode(
            payload: payload(3_000, seed: 5), encoding: .binary, fragmentLength: 500)
        var frame = code.nextCode()
        frame[frame.count - 1] ^= 0xFF
        var assembler = ScanAssembler()
        let events = assembler.consume(frame)
        #expect(events.count == 1)
        guard case .rejected = events.first else {
            Issue.record("a corrupted frame was accepted")
            return
        }
    }

    @Test func aURForAnotherTypeIsNotATenderPayload() throws {
        let ur = try UR(type: "bytes", cbor: [0x43, 1, 2, 3])
        var assembler = ScanAssembler()
        #expect(
            assembler.consume(Array(ur.string.utf8)).first.map {
                if case .rejected = $0 { true } else { false }
            } == true)
    }

    @Test func anEmptyOrNoisyFrameYieldsNothing() {
        let pipeline = ScanPipeline()
        #expect(pipeline.process(GreyImage(width: 640, height: 480)).isEmpty)
        var generator = SeededGenerator(seed: 1)
        let noise = GreyImage(
            width: 320, height: 240,
            pixels: (0..<(320 * 240)).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        #expect(pipeline.process(noise).isEmpty)
    }
}
