/// The three frames of the datagram link (an ATT characteristic written without response one
/// way, notified the other). Integers are big-endian; layouts in Docs/PROTOCOL.md:
///
///     data   0x01 ‖ link u32 ‖ message u16 ‖ index u16 ‖ count u16 ‖ payload
///     ack    0x02 ‖ link u32 ‖ message u16 ‖ next u16
///     close  0x03 ‖ link u32 ‖ reason u8
///
/// Decoding is strict: an ack or close has exactly its length, a data frame has count ≥ 1,
/// index < count and a payload unless it is the one fragment of an empty message.
public enum LinkFrame: Hashable, Sendable {
    case data(LinkFragment)
    case ack(LinkAck)
    case close(LinkClose)

    public static let dataType: UInt8 = 0x01
    public static let ackType: UInt8 = 0x02
    public static let closeType: UInt8 = 0x03
    public static let dataHeaderLength = 11
    public static let ackLength = 9
    public static let closeLength = 6

    public var link: UInt32 {
        switch self {
        case .data(let fragment): fragment.link
        case .ack(let ack): ack.link
        case .close(let close): close.link
        }
    }

    /// The link id of a frame of a known type, without decoding the rest: how a central drops
    /// other links' frames cheaply. Nil when the datagram is too short or of no known type.
    public static func peekLink(_ datagram: [UInt8]) -> UInt32? {
        guard datagram.count >= 5, (dataType...closeType).contains(datagram[0]) else { return nil }
        return BigEndian.read(UInt32.self, from: datagram, at: 1)
    }

    public static func decode(_ datagram: [UInt8]) throws(LinkError) -> LinkFrame {
        guard let type = datagram.first else { throw .truncatedFrame(length: 0, needed: 1) }
        switch type {
        case dataType: return .data(try LinkFragment.decode(datagram))
        case ackType:
            try requireLength(datagram, ackLength)
            return .ack(
                LinkAck(
                    link: BigEndian.read(UInt32.self, from: datagram, at: 1),
                    message: BigEndian.read(UInt16.self, from: datagram, at: 5),
                    next: BigEndian.read(UInt16.self, from: datagram, at: 7)))
        case closeType:
            try requireLength(datagram, closeLength)
            guard let reason = CloseReason(rawValue: datagram[5]) else {
                throw .unknownCloseReason(datagram[5])
            }
            return .close(
                LinkClose(link: BigEndian.read(UInt32.self, from: datagram, at: 1), reason: reason))
        default: throw .unknownFrameType(type)
        }
    }

    private static func requireLength(_ datagram: [UInt8], _ length: Int) throws(LinkError) {
        guard datagram.count >= length else {
            throw .truncatedFrame(length: datagram.count, needed: length)
        }
        guard datagram.count == length else {
            throw .trailingBytes(length: datagram.count, expected: length)
        }
    }

    public func encoded() -> [UInt8] {
        switch self {
        case .data(let fragment): return fragment.encoded()
        case .ack(let ack):
            var bytes = [Self.ackType]
            bytes.reserveCapacity(Self.ackLength)
            BigEndian.append(ack.link, to: &bytes)
            BigEndian.append(ack.message, to: &bytes)
            BigEndian.append(ack.next, to: &bytes)
            return bytes
        case .close(let close):
            var bytes = [Self.closeType]
            BigEndian.append(close.link, to: &bytes)
            bytes.append(close.reason.rawValue)
            return bytes
        }
    }
}

/// One fragment of a message: fragment `index` of `count`.
public struct LinkFragment: Hashable, Sendable {
    public var link: UInt32
    public var message: UInt16
    public var index: UInt16
    public var count: UInt16
    /// A slice of the datagram it was decoded from (no copy until it is kept).
    public var payload: ArraySlice<UInt8>

    public init(
        link: UInt32, message: UInt16, index: UInt16, count: UInt16, payload: ArraySlice<UInt8>
    ) {
        self.link = link
        self.message = message
        self.index = index
        self.count = count
        self.payload = payload
    }

    public var isLast: Bool { index == count &- 1 }

    static func decode(_ datagram: [UInt8]) throws(LinkError) -> LinkFragment {
        guard datagram.count >= LinkFrame.dataHeaderLength else {
            throw .truncatedFrame(length: datagram.count, needed: LinkFrame.dataHeaderLength)
        }
        let fragment = LinkFragment(
            link: BigEndian.read(UInt32.self, from: datagram, at: 1),
            message: BigEndian.read(UInt16.self, from: datagram, at: 5),
            index: BigEndian.read(UInt16.self, from: datagram, at: 7),
            count: BigEndian.read(UInt16.self, from: datagram, at: 9),
            payload: datagram[LinkFrame.dataHeaderLength...])
        guard fragment.count > 0 else { throw .zeroFragmentCount(message: fragment.message) }
        guard fragment.index < fragment.count else {
            throw .indexOutOfRange(
                message: fragment.message, index: fragment.index, count: fragment.count)
        }
        // Only an empty message (one fragment) may carry nothing.
        guard !fragment.payload.isEmpty || fragment.count == 1 else {
            throw .emptyFragment(message: fragment.message, index: fragment.index)
        }
        return fragment
    }

    public func encoded() -> [UInt8] {
        var bytes = [LinkFrame.dataType]
        bytes.reserveCapacity(LinkFrame.dataHeaderLength + payload.count)
        BigEndian.append(link, to: &bytes)
        BigEndian.append(message, to: &bytes)
        BigEndian.append(index, to: &bytes)
        BigEndian.append(count, to: &bytes)
        bytes.append(contentsOf: payload)
        return bytes
    }
}

/// Cumulative acknowledgement: every fragment of `message` with an index below `next` arrived;
/// `next == count` acknowledges the whole message.
public struct LinkAck: Hashable, Sendable {
    public var link: UInt32
    public var message: UInt16
    public var next: UInt16

    public init(link: UInt32, message: UInt16, next: UInt16) {
        self.link = link
        self.message = message
        self.next = next
    }
}

/// The sender gives up on the link.
public struct LinkClose: Hashable, Sendable {
    public var link: UInt32
    public var reason: CloseReason

    public init(link: UInt32, reason: CloseReason) {
        self.link = link
        self.reason = reason
    }
}

/// Why a side closed the link. Unknown values are refused (`unknownCloseReason`), so a
/// corrupted close is not taken for one.
public enum CloseReason: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The session above finished; nothing more will be sent.
    case done = 0x00
    /// The peer's frames broke the protocol.
    case protocolError = 0x01
    /// This side tracks too many links or messages to take this one.
    case busy = 0x02
    /// The peer stayed silent too long (retries exhausted, a message timed out).
    case timeout = 0x03
    /// The user or the session above cancelled.
    case cancelled = 0x04

    public var description: String {
        switch self {
        case .done: "done"
        case .protocolError: "protocol error"
        case .busy: "busy"
        case .timeout: "timeout"
        case .cancelled: "cancelled"
        }
    }
}
