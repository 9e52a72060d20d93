import Testing

@testable import Link

/// Cutting messages into fragments and joining them again, at the sizes that matter.
struct FragmenterTests {
    static let payload = LinkConfiguration.standard.maxPayloadBytes  // 233

    /// Fragments `bytes`, reassembles them in order, and returns the fragment count.
    @discardableResult
    static func roundTrip(
        _ bytes: [UInt8], configuration: LinkConfiguration = .standard
    )
        throws -> Int
    {
        let datagrams = try Fragmenter.datagrams(
            of: bytes, link: 7, id: 0, configuration: configuration)
        var reassembler = Reassembler(configuration: configuration)
        var delivered: [UInt8]?
        for (position, datagram) in datagrams.enumerated() {
            #expect(datagram.count <= configuration.maxDatagramBytes)
            guard case .data(let fragment) = try LinkFrame.decode(datagram) else {
                Issue.record("not a data frame")
                return 0
            }
            #expect(Int(fragment.index) == position && Int(fragment.count) == datagrams.count)
            if case .complete(let bytes) = try reassembler.accept(fragment, now: at(0)).progress {
                delivered = bytes
            }
        }
        #expect(delivered == bytes)
        #expect(reassembler.bufferedBytes == 0 && reassembler.messagesInFlight == 0)
        return datagrams.count
    }

    @Test func sizesAroundOneFragment() throws {
        #expect(Self.payload == 233)
        #expect(try Self.roundTrip([]) == 1)
        #expect(try Self.roundTrip(message(1)) == 1)
        #expect(try Self.roundTrip(message(Self.payload)) == 1)
        #expect(try Self.roundTrip(message(Self.payload + 1)) == 2)
        #expect(try Self.roundTrip(message(2 * Self.payload)) == 2)
        #expect(try Self.roundTrip(message(2 * Self.payload + 1)) == 3)
    }

    @Test func everyFragmentIsFullButTheLast() throws {
        let plan = try Fragmenter(messageBytes: 1000, configuration: .standard)
        #expect(plan.count == 5 && plan.fragmentSize == 233)
        #expect((0..<5).map { plan.range(of: $0).count } == [233, 233, 233, 233, 68])
    }

    @Test func theCapIsSentAndOneMoreIsRefused() throws {
        let cap = LinkConfiguration.standard.maxMessageBytes
        #expect(try Self.roundTrip(message(cap)) == (cap + Self.payload - 1) / Self.payload)
        #expect(
            thrown { try Fragmenter(messageBytes: cap + 1, configuration: .standard) }
                == .messageTooLargeToSend(bytes: cap + 1, limit: cap))
    }

    @Test func atMost65535Fragments() throws {
        var roomy = LinkConfiguration.standard
        roomy.maxDatagramBytes = 12  // one payload byte per fragment
        roomy.maxMessageBytes = 1 << 20
        #expect(try Fragmenter(messageBytes: 65_535, configuration: roomy).count == 65_535)
        #expect(
            thrown { try Fragmenter(messageBytes: 65_536, configuration: roomy) }
                == .messageTooLargeToSend(bytes: 65_536, limit: 65_535))
    }

    @Test func refusesDatagramsWithoutRoomForPayload() {
        var cramped = LinkConfiguration.standard
        cramped.maxDatagramBytes = LinkFrame.dataHeaderLength
        #expect(
            thrown { try Fragmenter(messageBytes: 1, configuration: cramped) }?.kind
                == .invalidConfiguration)
        #expect(
            thrown { try DatagramLink(id: 1, configuration: cramped) }?.kind
                == .invalidConfiguration)
    }
}
