import Testing

@testable import Link

/// Messages over an L2CAP packet channel: SDUs within the MTU, the declared length checked
/// against the cap before anything is held, ids in sequence, every refusal named.
struct PacketChannelTests {
    static let limits = try! PacketLimits(mtu: 32, maxMessageBytes: 1_000)

    /// Frames `bytes` and joins the SDUs again; returns how many there were.
    @discardableResult
    static func roundTrip(_ bytes: [UInt8], limits: PacketLimits = limits) throws -> Int {
        var framer = PacketFramer(limits: limits)
        var reassembler = PacketReassembler(limits: limits)
        let sdus = try framer.sdus(for: bytes)
        var delivered: [DeliveredMessage] = []
        for sdu in sdus {
            #expect(sdu.count <= limits.mtu)
            if let message = try reassembler.receive(sdu) { delivered.append(message) }
        }
        #expect(delivered == [DeliveredMessage(id: 0, bytes: bytes)])
        #expect(reassembler.bufferedBytes == 0)
        return sdus.count
    }

    @Test func layout() throws {
        var framer = PacketFramer(limits: Self.limits)
        let sdus = try framer.sdus(for: Array(1...30))
        #expect(sdus[0] == [0x10, 0, 0, 0, 0, 0, 30] + Array(1...25))
        #expect(sdus[1] == [0x11, 0, 0] + Array(26...30))
        #expect(try framer.sdus(for: []) == [[0x10, 0, 1, 0, 0, 0, 0]])
    }

    @Test func sizesAroundOneSDU() throws {
        #expect(try Self.roundTrip([]) == 1)
        #expect(try Self.roundTrip([7]) == 1)
        #expect(try Self.roundTrip(message(25)) == 1)
        #expect(try Self.roundTrip(message(26)) == 2)
        #expect(try Self.roundTrip(message(25 + 29)) == 2)
        #expect(try Self.roundTrip(message(25 + 29 + 1)) == 3)
        #expect(try Self.roundTrip(message(1_000)) == 35)
        #expect(try Self.roundTrip(message(100_000), limits: .standard) == 150)
        var framer = PacketFramer(limits: Self.limits)
        #expect(
            thrown { try framer.sdus(for: message(1_001)) }
                == .messageTooLargeToSend(bytes: 1_001, limit: 1_000))
    }

    @Test func idsFollowEachOtherAndWrap() throws {
        var framer = PacketFramer(limits: Self.limits)
        var reassembler = PacketReassembler(limits: Self.limits)
        var ids: [UInt16] = []
        for _ in 0..<65_537 {
            for sdu in try framer.sdus(for: [1]) {
                if let message = try reassembler.receive(sdu) { ids.append(message.id) }
            }
        }
        #expect(ids.count == 65_537 && ids.suffix(2) == [65_535, 0])
    }

    @Test func refusesMalformedSDUs() throws {
        var reassembler = PacketReassembler(limits: Self.limits)
        let cases: [([UInt8], LinkError)] = [
            ([UInt8](repeating: 0x11, count: 33), .datagramTooLarge(length: 33, limit: 32)),
            ([], .truncatedFrame(length: 0, needed: 1)),
            ([0x12, 0, 0], .unknownFrameType(0x12)),
            ([0x10, 0, 0, 0, 0, 0], .truncatedFrame(length: 6, needed: 7)),
            ([0x11, 0, 0], .truncatedFrame(length: 3, needed: 4)),
            ([0x11, 0, 0, 1], .continuationWithoutStart(message: 0)),
            ([0x10, 0, 1, 0, 0, 0, 1, 1], .messageOutOfSequence(message: 1, expected: 0)),
            (
                [0x10, 0, 0, 0, 0, 0x03, 0xE9],
                .messageTooLarge(message: 0, bytes: 1_001, cap: 1_000)
            ),
            ([0x10, 0, 1, 0, 0, 0, 1, 1, 2], .overrun(message: 1, bytes: 2, declared: 1)),
        ]
        for (sdu, error) in cases {
            #expect(thrown { try reassembler.receive(sdu) } == error)
            #expect(reassembler.bufferedBytes == 0)
        }
        // A refused start still uses up its id: the next message is 2.
        #expect(reassembler.expected == 2)
    }

    @Test func refusesWhatBreaksAnOpenMessage() throws {
        let start: [UInt8] = [0x10, 0, 0, 0, 0, 0, 10, 1, 2]
        let breaking: [([UInt8], LinkError)] = [
            ([0x10, 0, 1, 0, 0, 0, 1, 1], .startInsideMessage(open: 0, started: 1)),
            ([0x11, 0, 5, 3], .messageOutOfSequence(message: 5, expected: 0)),
            (
                [0x11, 0, 0] + [UInt8](repeating: 3, count: 9),
                .overrun(message: 0, bytes: 11, declared: 10)
            ),
        ]
        for (sdu, error) in breaking {
            var reassembler = PacketReassembler(limits: Self.limits)
            #expect(try reassembler.receive(start) == nil && reassembler.bufferedBytes == 2)
            #expect(thrown { try reassembler.receive(sdu) } == error)
            #expect(reassembler.bufferedBytes == 0)
            #expect(
                thrown { try reassembler.receive([0x11, 0, 0, 3]) }
                    == .continuationWithoutStart(message: 0))
        }
    }

    @Test func refusesLimitsThatCannotWork() {
        #expect(
            thrown { try PacketLimits(mtu: 7, maxMessageBytes: 10) }?.kind == .invalidConfiguration)
        #expect(
            thrown { try PacketLimits(mtu: 8, maxMessageBytes: -1) }?.kind == .invalidConfiguration)
        #expect(
            thrown { try PacketLimits(mtu: 8, maxMessageBytes: 1 << 32) }?.kind
                == .invalidConfiguration)
        #expect(thrown { try PacketLimits(mtu: 8, maxMessageBytes: 0) } == nil)
    }
}
