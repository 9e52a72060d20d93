import Link
import TenderTestSupport
import Testing

/// Milliseconds as a `LinkInstant`.
func at(_ milliseconds: Int64) -> LinkInstant { LinkInstant(milliseconds: milliseconds) }

/// Small, fast numbers for tests that walk the limits: 32-byte datagrams (21-byte payloads),
/// 1,000-byte messages, a window of 4, 3 links, 15 s for a silent message.
let tiny = LinkConfiguration(
    maxDatagramBytes: 32, maxMessageBytes: 1_000, maxMessagesInFlight: 4, maxLinks: 3,
    window: 4, messageTimeout: .seconds(15))

/// Reproducible message bytes.
func message(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
    var generator = SeededGenerator(seed: seed)
    return generator.bytes(count)
}

/// A data fragment as a datagram.
func fragment(
    link: UInt32 = 7, message: UInt16 = 0, index: UInt16, count: UInt16, payload: [UInt8]
) -> [UInt8] {
    LinkFragment(link: link, message: message, index: index, count: count, payload: payload[...])
        .encoded()
}

func ack(link: UInt32 = 7, message: UInt16 = 0, next: UInt16) -> [UInt8] {
    LinkFrame.ack(LinkAck(link: link, message: message, next: next)).encoded()
}

/// The acks among datagrams, decoded.
func acks(in datagrams: [[UInt8]]) -> [LinkAck] {
    datagrams.compactMap { datagram in
        if case .ack(let ack)? = try? LinkFrame.decode(datagram) { return ack }
        return nil
    }
}

/// The data fragments among datagrams, decoded.
func fragments(in datagrams: [[UInt8]]) -> [LinkFragment] {
    datagrams.compactMap { datagram in
        if case .data(let fragment)? = try? LinkFrame.decode(datagram) { return fragment }
        return nil
    }
}

/// The error a throwing call threw, or nil. (Untyped, so closures need no annotation; the
/// link only throws `LinkError`, and anything else is an issue.)
func thrown<T>(_ body: () throws -> T) -> LinkError? {
    do {
        _ = try body()
        return nil
    } catch let error as LinkError {
        return error
    } catch {
        Issue.record("not a LinkError: \(error)")
        return nil
    }
}

/// Feeds datagrams to a link one by one and gathers what came out.
func feed(
    _ datagrams: [[UInt8]], to link: inout DatagramLink, now: LinkInstant = at(0)
)
    -> LinkEvents
{
    var events = LinkEvents()
    for datagram in datagrams { events.append(link.receive(datagram, now: now)) }
    return events
}
