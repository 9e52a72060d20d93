/// Messages over a reliable, ordered packet channel (an LE L2CAP connection-oriented channel,
/// SOCK_SEQPACKET, whose SDUs arrive whole or not at all): each message as SDUs of at most
/// the channel's MTU, integers big-endian.
///
///     start         0x10 ‖ message u16 ‖ length u32 ‖ payload
///     continuation  0x11 ‖ message u16 ‖ payload (at least one byte)
///
/// The start declares the message's length, so the receiver refuses one over its cap before
/// holding any of it. Message ids start at 0 and grow by one; the channel keeps order, so any
/// other id is an error. No acks, no timers: the channel already retransmits.
public enum PacketFormat {
    public static let startType: UInt8 = 0x10
    public static let continuationType: UInt8 = 0x11
    public static let startHeaderLength = 7
    public static let continuationHeaderLength = 3
}

/// The channel's SDU size and the largest message either side takes.
public struct PacketLimits: Hashable, Sendable {
    public let mtu: Int
    public let maxMessageBytes: Int

    /// LE credit-based channels here negotiate 672 (BlueZ's default L2CAP MTU); messages as
    /// on the datagram link.
    public static let standard = PacketLimits(
        checkedMTU: 672, maxMessageBytes: LinkConfiguration.standard.maxMessageBytes)

    /// - Throws: `invalidConfiguration` for an MTU without room for payload after the start
    ///   header, or a cap outside what the start SDU's length can declare.
    public init(mtu: Int, maxMessageBytes: Int) throws(LinkError) {
        guard mtu > PacketFormat.startHeaderLength, (0...Int(UInt32.max)).contains(maxMessageBytes)
        else {
            throw .invalidConfiguration(
                "an MTU of \(mtu) holds no payload after the \(PacketFormat.startHeaderLength)-byte header, or the cap \(maxMessageBytes) is outside 0...2^32-1"
            )
        }
        self.init(checkedMTU: mtu, maxMessageBytes: maxMessageBytes)
    }

    private init(checkedMTU mtu: Int, maxMessageBytes: Int) {
        self.mtu = mtu
        self.maxMessageBytes = maxMessageBytes
    }
}

/// Cuts messages into SDUs: each as full as the MTU allows.
public struct PacketFramer: Sendable {
    public let limits: PacketLimits
    public private(set) var nextID: UInt16 = 0

    public init(limits: PacketLimits = .standard) { self.limits = limits }

    /// The SDUs of `message`, in order; the next message gets the next id.
    public mutating func sdus(for message: [UInt8]) throws(LinkError) -> [[UInt8]] {
        guard message.count <= limits.maxMessageBytes else {
            throw .messageTooLargeToSend(bytes: message.count, limit: limits.maxMessageBytes)
        }
        let id = nextID
        nextID &+= 1
        var start = [PacketFormat.startType]
        BigEndian.append(id, to: &start)
        BigEndian.append(UInt32(message.count), to: &start)
        var offset = min(message.count, limits.mtu - PacketFormat.startHeaderLength)
        start += message[..<offset]
        var sdus = [start]
        while offset < message.count {
            let end = min(
                message.count, offset + limits.mtu - PacketFormat.continuationHeaderLength)
            var continuation = [PacketFormat.continuationType]
            BigEndian.append(id, to: &continuation)
            continuation += message[offset..<end]
            sdus.append(continuation)
            offset = end
        }
        return sdus
    }
}

/// Joins SDUs back into messages, holding at most one incomplete message of at most
/// `limits.maxMessageBytes`. A refused SDU discards the incomplete message; on a reliable channel
/// that means a broken peer, and the caller should close the channel.
public struct PacketReassembler: Sendable {
    private struct Open: Sendable {
        var id: UInt16
        var declared: Int
        var bytes: [UInt8]
    }

    public let limits: PacketLimits
    /// The id the next start SDU must carry.
    public private(set) var expected: UInt16 = 0
    private var open: Open?

    public init(limits: PacketLimits = .standard) { self.limits = limits }

    /// Payload bytes held for the incomplete message.
    public var bufferedBytes: Int { open?.bytes.count ?? 0 }

    /// Takes one SDU; returns the message it completes, if any.
    public mutating func receive(_ sdu: [UInt8]) throws(LinkError) -> DeliveredMessage? {
        guard sdu.count <= limits.mtu else {
            throw .datagramTooLarge(length: sdu.count, limit: limits.mtu)
        }
        guard let type = sdu.first else { throw .truncatedFrame(length: 0, needed: 1) }
        switch type {
        case PacketFormat.startType: return try start(sdu)
        case PacketFormat.continuationType: return try continuation(sdu)
        default: throw .unknownFrameType(type)
        }
    }

    private mutating func start(_ sdu: [UInt8]) throws(LinkError) -> DeliveredMessage? {
        guard sdu.count >= PacketFormat.startHeaderLength else {
            throw .truncatedFrame(length: sdu.count, needed: PacketFormat.startHeaderLength)
        }
        let id = BigEndian.read(UInt16.self, from: sdu, at: 1)
        if let open {
            self.open = nil
            throw .startInsideMessage(open: open.id, started: id)
        }
        guard id == expected else { throw .messageOutOfSequence(message: id, expected: expected) }
        expected &+= 1
        let declared = Int(BigEndian.read(UInt32.self, from: sdu, at: 3))
        guard declared <= limits.maxMessageBytes else {
            throw .messageTooLarge(message: id, bytes: declared, cap: limits.maxMessageBytes)
        }
        let payload = sdu[PacketFormat.startHeaderLength...]
        guard payload.count <= declared else {
            throw .overrun(message: id, bytes: payload.count, declared: declared)
        }
        return take(Open(id: id, declared: declared, bytes: Array(payload)))
    }

    private mutating func continuation(_ sdu: [UInt8]) throws(LinkError) -> DeliveredMessage? {
        let needed = PacketFormat.continuationHeaderLength + 1
        guard sdu.count >= needed else { throw .truncatedFrame(length: sdu.count, needed: needed) }
        let id = BigEndian.read(UInt16.self, from: sdu, at: 1)
        guard var message = open else { throw .continuationWithoutStart(message: id) }
        open = nil
        guard id == message.id else {
            throw .messageOutOfSequence(message: id, expected: message.id)
        }
        let payload = sdu[PacketFormat.continuationHeaderLength...]
        guard message.bytes.count + payload.count <= message.declared else {
            throw .overrun(
                message: id, bytes: message.bytes.count + payload.count, declared: message.declared)
        }
        message.bytes += payload
        return take(message)
    }

    /// Delivers a message once it holds what it declared, keeps it open otherwise.
    private mutating func take(_ message: Open) -> DeliveredMessage? {
        guard message.bytes.count == message.declared else {
            open = message
            return nil
        }
        return DeliveredMessage(id: message.id, bytes: message.bytes)
    }
}
