import BlueZ
import Link

/// The payee's LE L2CAP channels, a payer's alternative to the GATT link: a listener on
/// Tender's PSM, each channel accepted and read as a link of its own, at most as many as GATT
/// links. Channel ids never go on the air, so no central can name another's channel.
actor PayeeChannels {
    typealias MessageHandler = @Sendable (_ link: UInt32, _ message: [UInt8]) async -> Void

    private let listener: L2CAPListener
    nonisolated let psm: UInt16
    private var channels: [UInt32: L2CAPChannel] = [:]
    private var acceptor: Task<Void, Never>?

    /// Listening on `psm`; throws when the kernel will not (PSM taken, no LE L2CAP).
    init(psm: UInt16) throws(BluetoothError) {
        listener = try L2CAPListener(psm: psm)
        self.psm = psm
    }

    /// Accepts channels until `stop`: each one's messages go to `onMessage`, its end to
    /// `onClosed`. `inUse` says whether an id is taken by a GATT link.
    func start(
        inUse: @escaping @Sendable (UInt32) async -> Bool, onMessage: @escaping MessageHandler,
        onClosed: @escaping @Sendable (UInt32) async -> Void
    ) {
        acceptor = Task {
            await accept(inUse: inUse, onMessage: onMessage, onClosed: onClosed)
        }
    }

    /// The accept loop; each channel is read by a child task of it, so stopping the loop
    /// (cancelling `acceptor`) ends every reader with it.
    private func accept(
        inUse: @escaping @Sendable (UInt32) async -> Bool, onMessage: @escaping MessageHandler,
        onClosed: @escaping @Sendable (UInt32) async -> Void
    ) async {
        await withDiscardingTaskGroup { readers in
            while !Task.isCancelled {
                let channel: L2CAPChannel
                do throws(BluetoothError) {
                    channel = try await listener.accept(timeout: .seconds(3600))
                } catch {
                    // An hour without a channel: listen on. Anything else ends the listening
                    // (stopped, or the kernel's refusal): payers use GATT.
                    guard error.kind == .timedOut else { return }
                    continue
                }
                // As many channels as GATT links at most: a flood of channels is refused.
                guard channels.count < LinkConfiguration.standard.maxLinks else {
                    await channel.close()
                    continue
                }
                var id = UInt32.random(in: 1...UInt32.max)
                while true {
                    if channels[id] == nil, await inUse(id) == false { break }
                    id = UInt32.random(in: 1...UInt32.max)
                }
                channels[id] = channel
                readers.addTask {
                    await self.read(channel, as: id, onMessage: onMessage, onClosed: onClosed)
                }
            }
        }
    }

    /// Reads a channel's messages until it ends or stays silent past the link's message
    /// timeout.
    private func read(
        _ channel: L2CAPChannel, as link: UInt32, onMessage: MessageHandler,
        onClosed: @Sendable (UInt32) async -> Void
    ) async {
        while channels[link] != nil,
            let message = try? await channel.receive(
                timeout: LinkConfiguration.standard.messageTimeout)
        {
            await onMessage(link, message)
        }
        channels.removeValue(forKey: link)
        await channel.close()
        await onClosed(link)
    }

    func contains(_ link: UInt32) -> Bool { channels[link] != nil }

    /// Sends on `link`'s channel; false when `link` is no channel.
    func send(_ message: [UInt8], on link: UInt32) async throws(BluetoothError) -> Bool {
        guard let channel = channels[link] else { return false }
        try await channel.send(message)
        return true
    }

    /// Closes `link`'s channel; false when `link` is no channel.
    func close(_ link: UInt32) async -> Bool {
        guard let channel = channels.removeValue(forKey: link) else { return false }
        await channel.close()
        return true
    }

    /// No more channels: the listener and every channel closed.
    func stop() async {
        acceptor?.cancel()
        await listener.close()
        for channel in channels.values { await channel.close() }
        channels = [:]
    }
}
