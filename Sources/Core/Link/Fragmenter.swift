/// How a message is cut into data fragments: each full (`fragmentSize` bytes) but the last,
/// which holds the rest (1...fragmentSize bytes); an empty message is one empty fragment.
/// Full fragments let the receiver place every fragment at `index × fragmentSize` and know
/// the message's size within one fragment from the first fragment it sees.
public struct Fragmenter: Hashable, Sendable {
    public let messageBytes: Int
    public let fragmentSize: Int
    public let count: Int

    /// - Throws: `messageTooLargeToSend` over `maxMessageBytes` or 65,535 fragments;
    ///   `invalidConfiguration` for a datagram too small for a header and a byte.
    public init(messageBytes: Int, configuration: LinkConfiguration) throws(LinkError) {
        try configuration.validate()
        let size = configuration.maxPayloadBytes
        let limit = min(configuration.maxMessageBytes, Int(UInt16.max) * size)
        guard messageBytes <= limit else {
            throw .messageTooLargeToSend(bytes: messageBytes, limit: limit)
        }
        self.messageBytes = messageBytes
        fragmentSize = size
        count = max(1, (messageBytes + size - 1) / size)
    }

    /// Bytes of the message in fragment `index`.
    public func range(of index: Int) -> Range<Int> {
        let start = index * fragmentSize
        return start..<min(start + fragmentSize, messageBytes)
    }

    /// Data fragment `index` of `message` as a datagram.
    public func datagram(_ index: Int, of message: [UInt8], link: UInt32, id: UInt16) -> [UInt8] {
        LinkFragment(
            link: link, message: id, index: UInt16(index), count: UInt16(count),
            payload: message[range(of: index)]
        ).encoded()
    }

    /// Every data fragment of `message` as datagrams, in order.
    public static func datagrams(
        of message: [UInt8], link: UInt32, id: UInt16, configuration: LinkConfiguration
    ) throws(LinkError) -> [[UInt8]] {
        let plan = try Fragmenter(messageBytes: message.count, configuration: configuration)
        return (0..<plan.count).map { plan.datagram($0, of: message, link: link, id: id) }
    }
}
