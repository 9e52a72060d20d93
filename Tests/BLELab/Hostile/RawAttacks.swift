import Link

/// Datagrams no honest payer writes. The payee must drop each one and keep serving.
struct RawAttacks {
    let target: Target

    func run() async throws {
        var random = SystemRandomNumberGenerator()
        let payload = LinkConfiguration.standard.maxPayloadBytes

        // Bytes of no frame at all, of every length a value can have.
        for length in 1...LinkConfiguration.standard.maxDatagramBytes {
            try await target.write((0..<length).map { _ in random.next() })
        }
        try await stillServing("garbage: 244 random datagrams")

        // Every frame type cut short, and acks and closes with bytes to spare.
        let link = UInt32.random(in: 1...UInt32.max, using: &random)
        let whole = [
            data(link: link, message: 0, index: 0, count: 1, bytes: 20),
            [LinkFrame.ackType] + be(link) + [0, 0, 0, 1],
            [LinkFrame.closeType] + be(link) + [0],
        ]
        for frame in whole {
            for cut in 1..<min(frame.count, LinkFrame.dataHeaderLength) {
                try await target.write(Array(frame.prefix(cut)))
            }
            try await target.write(frame + [0xFF])
        }
        try await stillServing("truncated: every frame cut at every header byte, and overlong")

        // Declared sizes beyond any message: 65535 fragments of a full payload, an index
        // past the count, a count of zero.
        try await target.write(
            data(link: link, message: 1, index: 0, count: 0xFFFF, bytes: payload))
        try await target.write(data(link: link, message: 2, index: 9, count: 2, bytes: payload))
        try await target.write(data(link: link, message: 3, index: 0, count: 0, bytes: payload))
        try await stillServing("oversized: 65535-fragment message, index past count, count 0")

        // Floods: a first fragment of an unfinished message on 400 links, then 400 messages on
        // one link: fifty times what the payee's tables hold (8 links, 4 messages each). They
        // are bounded; it must not grow with the flood. (Each write is a D-Bus call to the
        // payee's application: thousands take minutes to drain in the lab's emulated guests.)
        let flood = 400
        for _ in 0..<flood {
            let other = UInt32.random(in: 1...UInt32.max, using: &random)
            try await target.write(
                data(link: other, message: 0, index: 0, count: 4, bytes: payload))
        }
        try await stillServing("link-id flood: \(flood) links each with an unfinished message")
        for message in 0..<flood {
            try await target.write(
                data(link: link, message: UInt16(message), index: 0, count: 4, bytes: payload))
        }
        try await stillServing("message-id flood: \(flood) unfinished messages on one link")
    }

    /// A data frame as the layout in Docs/PROTOCOL.md §10 has it, whatever its fields say.
    private func data(
        link: UInt32, message: UInt16, index: UInt16, count: UInt16, bytes: Int
    ) -> [UInt8] {
        [LinkFrame.dataType] + be(link) + be(message) + be(index) + be(count)
            + [UInt8](repeating: 0xA5, count: bytes)
    }

    /// The payee still opens a session with a well-behaved payer.
    private func stillServing(_ attack: String) async throws {
        _ = try await target.withLink { try await SessionAttacks.hello(on: $0) }
        say("hostile: \(attack): ignored; the payee still answers a new session")
    }
}

func be<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian, Array.init)
}
