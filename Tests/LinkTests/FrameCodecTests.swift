import Testing

@testable import Link

/// The three datagram frames: every field in its place, every refusal named.
struct FrameCodecTests {
    @Test func dataFrameLayout() throws {
        let frame = LinkFragment(
            link: 0x0102_0304, message: 0x0506, index: 0x0708, count: 0x090A,
            payload: [0xAA, 0xBB][...])
        let bytes = frame.encoded()
        #expect(bytes == [0x01, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0xAA, 0xBB])
        #expect(try LinkFrame.decode(bytes) == .data(frame))
        #expect(LinkFrame.peekLink(bytes) == 0x0102_0304)
    }

    @Test func ackAndCloseLayout() throws {
        let ack = LinkAck(link: 0xDEAD_BEEF, message: 0x1234, next: 0xFFFF)
        let ackBytes = LinkFrame.ack(ack).encoded()
        #expect(ackBytes == [0x02, 0xDE, 0xAD, 0xBE, 0xEF, 0x12, 0x34, 0xFF, 0xFF])
        #expect(try LinkFrame.decode(ackBytes) == .ack(ack))
        for reason in CloseReason.allCases {
            let close = LinkClose(link: 0x8000_0001, reason: reason)
            let bytes = LinkFrame.close(close).encoded()
            #expect(bytes == [0x03, 0x80, 0, 0, 1, reason.rawValue])
            #expect(try LinkFrame.decode(bytes) == .close(close))
            #expect(LinkFrame.close(close).link == 0x8000_0001)
        }
        #expect(CloseReason.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
    }

    /// Each field decodes from its own bytes: a field set to all ones among zeros.
    @Test func everyFieldDecodesFromItsOwnBytes() throws {
        let base = LinkFragment(link: 0, message: 0, index: 0, count: 1, payload: [9][...])
        var linkOnly = base
        linkOnly.link = .max
        var messageOnly = base
        messageOnly.message = .max
        var countOnly = base
        countOnly.count = .max
        var indexAndCount = base
        indexAndCount.index = 0xFFFE
        indexAndCount.count = .max
        for fragment in [base, linkOnly, messageOnly, countOnly, indexAndCount] {
            #expect(try LinkFrame.decode(fragment.encoded()) == .data(fragment))
        }
        for (message, next) in [(UInt16.max, UInt16(0)), (0, .max)] {
            let ack = LinkAck(link: .max, message: message, next: next)
            #expect(try LinkFrame.decode(LinkFrame.ack(ack).encoded()) == .ack(ack))
        }
    }

    @Test func emptyMessageIsOneEmptyFragment() throws {
        let bytes = fragment(index: 0, count: 1, payload: [])
        #expect(bytes.count == LinkFrame.dataHeaderLength)
        guard case .data(let decoded) = try LinkFrame.decode(bytes) else {
            Issue.record("not a data frame")
            return
        }
        #expect(decoded.payload.isEmpty && decoded.isLast)
    }

    @Test func refusesEmptyAndUnknownTypes() {
        #expect(thrown { try LinkFrame.decode([]) } == .truncatedFrame(length: 0, needed: 1))
        for type in UInt8.min...UInt8.max where !(1...3).contains(type) {
            let bytes = [type] + [UInt8](repeating: 0, count: 12)
            #expect(thrown { try LinkFrame.decode(bytes) } == .unknownFrameType(type))
            #expect(LinkFrame.peekLink(bytes) == nil)
        }
        #expect(LinkError.unknownFrameType(0x0A).description == "unknown frame type 0x0a")
    }

    @Test func refusesEveryTruncation() {
        let frames = [
            fragment(index: 1, count: 3, payload: [1, 2, 3]),
            ack(next: 2),
            LinkFrame.close(LinkClose(link: 7, reason: .done)).encoded(),
        ]
        let needed = [LinkFrame.dataHeaderLength, LinkFrame.ackLength, LinkFrame.closeLength]
        for (frame, needed) in zip(frames, needed) {
            for length in 1..<needed {
                #expect(
                    thrown { try LinkFrame.decode(Array(frame.prefix(length))) }
                        == .truncatedFrame(length: length, needed: needed))
            }
        }
        #expect(
            LinkError.truncatedFrame(length: 4, needed: 9).description
                == "truncated frame: 4 bytes, needs at least 9")
    }

    @Test func refusesTrailingBytesOnAckAndClose() {
        #expect(
            thrown { try LinkFrame.decode(ack(next: 1) + [0]) }
                == .trailingBytes(length: 10, expected: 9))
        let close = LinkFrame.close(LinkClose(link: 7, reason: .busy)).encoded()
        #expect(
            thrown { try LinkFrame.decode(close + [0, 0]) }
                == .trailingBytes(length: 8, expected: 6))
    }

    @Test func refusesImpossibleFragments() {
        #expect(
            thrown { try LinkFrame.decode(fragment(message: 4, index: 0, count: 0, payload: [1])) }
                == .zeroFragmentCount(message: 4))
        let outOfRange = thrown {
            try LinkFrame.decode(fragment(message: 4, index: 7, count: 5, payload: [1]))
        }
        #expect(outOfRange == .indexOutOfRange(message: 4, index: 7, count: 5))
        #expect(outOfRange?.description == "message 4: index 7 of count 5")
        #expect(
            thrown { try LinkFrame.decode(fragment(message: 4, index: 5, count: 5, payload: [1])) }
                == .indexOutOfRange(message: 4, index: 5, count: 5))
        #expect(
            thrown { try LinkFrame.decode(fragment(message: 4, index: 1, count: 2, payload: [])) }
                == .emptyFragment(message: 4, index: 1))
    }

    @Test func refusesUnknownCloseReasons() {
        for reason in UInt8(5)...UInt8.max {
            #expect(
                thrown { try LinkFrame.decode([0x03, 0, 0, 0, 7, reason]) }
                    == .unknownCloseReason(reason))
        }
    }

    @Test func errorsNameWhatWasWrong() {
        let cases: [(LinkError, String)] = [
            (
                .messageTooLarge(message: 12, bytes: 300_000, cap: 1_114_112),
                "message 12 declares 300000 bytes, cap 1114112"
            ),
            (.retriesExhausted(message: 3), "retries exhausted for message 3"),
            (
                .conflictingFragment(message: 2, index: 1),
                "conflicting fragment: message 2 index 1 differs from what was held"
            ),
            (
                .tooManyMessagesInFlight(dropped: 9, limit: 4),
                "too many messages in flight (limit 4): dropped message 9"
            ),
            (.unknownLink(0xAB), "no link 0x000000ab"),
            (.linkClosed(.protocolError), "link closed (protocol error)"),
        ]
        for (error, text) in cases { #expect(error.description == text) }
    }
}
