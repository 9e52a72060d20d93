/// Everything the link refuses, each naming what was wrong. Errors about the peer's frames are
/// reported as events (`LinkEvents.errors`) and counted by kind (`LinkCounters.errors`); the
/// link stays usable, and the layer above decides whether to close it.
public enum LinkError: Error, Hashable, Sendable, CustomStringConvertible {
    // Frames on the datagram link (Docs/PROTOCOL.md, Bluetooth)
    /// A frame shorter than its type's header (or empty).
    case truncatedFrame(length: Int, needed: Int)
    /// A first byte that is no frame type of this link.
    case unknownFrameType(UInt8)
    /// An ack or close with bytes after its last field.
    case trailingBytes(length: Int, expected: Int)
    /// A datagram or SDU over the configured maximum.
    case datagramTooLarge(length: Int, limit: Int)
    /// A data fragment declaring zero fragments.
    case zeroFragmentCount(message: UInt16)
    /// A fragment index at or past its message's fragment count.
    case indexOutOfRange(message: UInt16, index: UInt16, count: UInt16)
    /// A data fragment without payload in a message of more than one fragment.
    case emptyFragment(message: UInt16, index: UInt16)
    /// A close frame with a reason this link does not define.
    case unknownCloseReason(UInt8)

    // Reassembly
    /// A message whose fragments (or declared length) need more than the cap.
    case messageTooLarge(message: UInt16, bytes: Int, cap: Int)
    /// A fragment that contradicts what is held for its message: other bytes at the same
    /// index, another fragment count, or a length the message's other fragments rule out.
    /// The message is discarded.
    case conflictingFragment(message: UInt16, index: UInt16)
    /// A new message arrived while the most messages were in flight: the oldest was dropped.
    case tooManyMessagesInFlight(dropped: UInt16, limit: Int)
    /// A fragment did not fit the link's buffer: the oldest message was dropped.
    case bufferFull(dropped: UInt16, limit: Int)
    /// An incomplete message heard nothing for the message timeout and was dropped.
    case messageTimedOut(message: UInt16)
    /// A fragment of a message too far ahead of the next one expected.
    case messageOutOfWindow(message: UInt16, expected: UInt16)

    // Sending
    /// The peer never acknowledged the message through every retransmission.
    case retriesExhausted(message: UInt16)
    /// An ack claiming more fragments than the message has.
    case ackOutOfRange(message: UInt16, next: UInt16, count: UInt16)
    /// An ack for a message this side has not sent.
    case ackForUnsentMessage(message: UInt16)
    /// `send` while another message is still unacknowledged (one at a time per direction).
    case senderBusy(inFlight: UInt16)
    /// A message longer than the configured maximum or than 65,535 fragments can carry.
    case messageTooLargeToSend(bytes: Int, limit: Int)
    /// The link was closed (by the peer or this side); nothing more is sent or received.
    case linkClosed(CloseReason)
    /// A configuration that cannot work (a datagram too small for a header and a byte).
    case invalidConfiguration(String)
    /// `send` to a link the table does not hold (never seen, closed or evicted).
    case unknownLink(UInt32)

    // Packet channel (L2CAP SOCK_SEQPACKET)
    /// A message id other than the next one on a reliable, ordered channel.
    case messageOutOfSequence(message: UInt16, expected: UInt16)
    /// A start SDU while another message is still incomplete.
    case startInsideMessage(open: UInt16, started: UInt16)
    /// A continuation SDU with no message started.
    case continuationWithoutStart(message: UInt16)
    /// More payload than the start SDU declared.
    case overrun(message: UInt16, bytes: Int, declared: Int)

    /// The case without its values, for counting.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        case truncatedFrame, unknownFrameType, trailingBytes, datagramTooLarge
        case zeroFragmentCount, indexOutOfRange, emptyFragment, unknownCloseReason
        case messageTooLarge, conflictingFragment, tooManyMessagesInFlight, bufferFull
        case messageTimedOut, messageOutOfWindow
        case retriesExhausted, ackOutOfRange, ackForUnsentMessage, senderBusy
        case messageTooLargeToSend, linkClosed, invalidConfiguration, unknownLink
        case messageOutOfSequence, startInsideMessage, continuationWithoutStart, overrun
    }

    public var kind: Kind {
        switch self {
        case .truncatedFrame: .truncatedFrame
        case .unknownFrameType: .unknownFrameType
        case .trailingBytes: .trailingBytes
        case .datagramTooLarge: .datagramTooLarge
        case .zeroFragmentCount: .zeroFragmentCount
        case .indexOutOfRange: .indexOutOfRange
        case .emptyFragment: .emptyFragment
        case .unknownCloseReason: .unknownCloseReason
        case .messageTooLarge: .messageTooLarge
        case .conflictingFragment: .conflictingFragment
        case .tooManyMessagesInFlight: .tooManyMessagesInFlight
        case .bufferFull: .bufferFull
        case .messageTimedOut: .messageTimedOut
        case .messageOutOfWindow: .messageOutOfWindow
        case .retriesExhausted: .retriesExhausted
        case .ackOutOfRange: .ackOutOfRange
        case .ackForUnsentMessage: .ackForUnsentMessage
        case .senderBusy: .senderBusy
        case .messageTooLargeToSend: .messageTooLargeToSend
        case .linkClosed: .linkClosed
        case .invalidConfiguration: .invalidConfiguration
        case .unknownLink: .unknownLink
        case .messageOutOfSequence: .messageOutOfSequence
        case .startInsideMessage: .startInsideMessage
        case .continuationWithoutStart: .continuationWithoutStart
        case .overrun: .overrun
        }
    }

    public var description: String {
        switch self {
        case .truncatedFrame(let length, let needed):
            "truncated frame: \(length) bytes, needs at least \(needed)"
        case .unknownFrameType(let type): "unknown frame type 0x\(Self.hex(type))"
        case .trailingBytes(let length, let expected):
            "frame of \(length) bytes, its type has exactly \(expected)"
        case .datagramTooLarge(let length, let limit):
            "datagram of \(length) bytes, limit \(limit)"
        case .zeroFragmentCount(let message): "message \(message) declares 0 fragments"
        case .indexOutOfRange(let message, let index, let count):
            "message \(message): index \(index) of count \(count)"
        case .emptyFragment(let message, let index):
            "message \(message): fragment \(index) is empty"
        case .unknownCloseReason(let reason): "unknown close reason 0x\(Self.hex(reason))"
        case .messageTooLarge(let message, let bytes, let cap):
            "message \(message) declares \(bytes) bytes, cap \(cap)"
        case .conflictingFragment(let message, let index):
            "conflicting fragment: message \(message) index \(index) differs from what was held"
        case .tooManyMessagesInFlight(let dropped, let limit):
            "too many messages in flight (limit \(limit)): dropped message \(dropped)"
        case .bufferFull(let dropped, let limit):
            "link buffer full (limit \(limit) bytes): dropped message \(dropped)"
        case .messageTimedOut(let message): "message \(message) timed out incomplete"
        case .messageOutOfWindow(let message, let expected):
            "message \(message) is out of window (expected \(expected))"
        case .retriesExhausted(let message): "retries exhausted for message \(message)"
        case .ackOutOfRange(let message, let next, let count):
            "ack for message \(message): next \(next) of count \(count)"
        case .ackForUnsentMessage(let message): "ack for message \(message), never sent"
        case .senderBusy(let inFlight): "message \(inFlight) is still in flight"
        case .messageTooLargeToSend(let bytes, let limit):
            "message of \(bytes) bytes, limit \(limit)"
        case .linkClosed(let reason): "link closed (\(reason))"
        case .invalidConfiguration(let problem): "invalid configuration: \(problem)"
        case .unknownLink(let link): "no link 0x\(Self.hex(link))"
        case .messageOutOfSequence(let message, let expected):
            "message \(message) out of sequence (expected \(expected))"
        case .startInsideMessage(let open, let started):
            "message \(started) starts while message \(open) is incomplete"
        case .continuationWithoutStart(let message):
            "continuation of message \(message), which never started"
        case .overrun(let message, let bytes, let declared):
            "message \(message): \(bytes) bytes, declared \(declared)"
        }
    }

    static func hex<Value: FixedWidthInteger & UnsignedInteger>(_ value: Value) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: Value.bitWidth / 4 - digits.count) + digits
    }
}
