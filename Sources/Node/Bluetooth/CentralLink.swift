import BlueZ
import DBus
import Link
import Posix

/// The payer's end of a link to a payee over GATT: datagrams written to rx (through the
/// socket AcquireWrite gives, or WriteValue without response), the payee's datagrams read
/// from tx notifications; windowed delivery with acknowledgements (the Link module) on top.
public actor CentralLink {
    private var link: DatagramLink
    private let rx: RemoteCharacteristic
    /// The socket AcquireWrite gave (a non-blocking copy), when BlueZ offered one.
    private var socket: FileDescriptor?
    /// Waits for a full socket to drain (a payer writes faster than the air carries).
    private let watch: ReadinessWatch?
    private let notifications: Notifications
    private var inbox: [[UInt8]] = []
    private var receivers: [CheckedContinuation<Result<[UInt8], BluetoothError>, Never>] = []
    private var sending:
        (id: UInt16, done: CheckedContinuation<Result<Void, BluetoothError>, Never>)?
    private var failure: BluetoothError?
    private var listener: Task<Void, Never>?
    private var ticker: Task<Void, Never>?
    private let timer = LinkTimer()
    /// Datagrams written, for the figures (bytes on air per payment).
    public private(set) var bytesWritten = 0
    public private(set) var bytesRead = 0
    /// The link's totals (resends, timeouts, acks), for the figures.
    public var counters: LinkCounters { link.counters }

    /// Opens a link over the payee's rx and tx characteristics.
    public static func open(
        rx: RemoteCharacteristic, tx: RemoteCharacteristic,
        configuration: LinkConfiguration = .standard
    ) async throws(BluetoothError) -> CentralLink {
        let link: DatagramLink
        do {
            link = try DatagramLink(
                id: UInt32.random(in: 1...UInt32.max), configuration: configuration)
        } catch {
            throw BluetoothError(.bluez, "link configuration: \(error)")
        }
        let notifications = try await tx.notifications()
        // The acquired socket skips a D-Bus round trip per datagram; BlueZ may not offer it.
        var socket = nonBlockingCopy(try? await rx.acquireWrite().socket)
        var watch: ReadinessWatch?
        if socket != nil {
            do { watch = try ReadinessWatch() } catch {
                // Without a watch the socket cannot be waited on: WriteValue carries instead.
                socket.take()?.close()
            }
        }
        let central = CentralLink(
            link: link, rx: rx, socket: socket.take(), watch: watch,
            notifications: notifications)
        await central.start()
        return central
    }

    private init(
        link: DatagramLink, rx: RemoteCharacteristic, socket: consuming FileDescriptor?,
        watch: ReadinessWatch?, notifications: Notifications
    ) {
        self.link = link
        self.rx = rx
        self.socket = socket
        self.watch = watch
        self.notifications = notifications
    }

    isolated deinit { socket.take()?.close() }

    /// A descriptor of our own for the acquired socket, set non-blocking; nil when there is
    /// none or it cannot be set up (WriteValue then carries the datagrams).
    private static func nonBlockingCopy(_ acquired: UnixFD?) -> FileDescriptor? {
        guard let acquired else { return nil }
        let copy: FileDescriptor
        do { copy = try acquired.duplicate() } catch { return nil }
        do { try copy.makeNonBlocking() } catch {
            copy.close()
            return nil
        }
        return copy
    }

    private func start() {
        let values = notifications.values
        listener = Task { [weak self] in
            for await datagram in values {
                guard let self else { return }
                await self.take(datagram)
            }
            await self?.fail(
                BluetoothError(.notConnected, "the payee's notifications stopped (link lost)"))
        }
        ticker = timer.run { [weak self] in await self?.tick() }
    }

    /// Whether datagrams go through an acquired socket (else WriteValue).
    public var usesAcquiredSocket: Bool { socket != nil }

    /// Sends one message and returns once the payee acknowledged all of it.
    public func send(_ message: [UInt8]) async throws(BluetoothError) {
        if let failure { throw failure }
        let datagrams: [[UInt8]]
        do { datagrams = try link.send(message, now: linkNow()) } catch {
            throw BluetoothError(.bluez, "link: \(error)")
        }
        timer.wake()
        let id = link.messageInFlight ?? 0
        await write(datagrams)
        if let failure { throw failure }
        // Acknowledged while the last datagrams were still being written.
        guard link.messageInFlight == id else { return }
        let result = await withCheckedContinuation { sending = (id, $0) }
        try result.get()
    }

    /// The next message from the payee, or a failure after `timeout`.
    public func receive(timeout: Duration) async throws(BluetoothError) -> [UInt8] {
        if !inbox.isEmpty { return inbox.removeFirst() }
        if let failure { throw failure }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            await self?.expireReceivers(after: timeout)
        }
        defer { timer.cancel() }
        let result = await withCheckedContinuation { receivers.append($0) }
        return try result.get()
    }

    /// Closes the link (the payee forgets it), stops listening and unsubscribes: a link
    /// opened after this returns has the payee's notifications to itself.
    public func close(_ reason: CloseReason = .done) async {
        let frame = link.close(reason)
        await write([frame])
        if let raw = socket?.raw { watch?.forget(raw) }
        socket.take()?.close()
        fail(BluetoothError(.notConnected, "the link is closed"))
        listener?.cancel()
        ticker?.cancel()
        await notifications.end()
    }

    // MARK: - Driving the link

    private func take(_ datagram: [UInt8]) async {
        bytesRead += datagram.count
        let events = link.receive(datagram, now: linkNow())
        timer.wake()
        await process(events)
    }

    /// Runs timers; returns the next deadline (nil: none until something is sent or taken).
    private func tick() async -> LinkInstant? {
        await process(link.tick(now: linkNow()))
        return link.nextDeadline
    }

    private func process(_ events: LinkEvents) async {
        if !events.datagrams.isEmpty { await write(events.datagrams) }
        for message in events.delivered {
            if receivers.isEmpty {
                inbox.append(message.bytes)
            } else {
                receivers.removeFirst().resume(returning: .success(message.bytes))
            }
        }
        if let sending, events.acknowledged.contains(sending.id) {
            self.sending = nil
            sending.done.resume(returning: .success(()))
        }
        for error in events.errors {
            if case .retriesExhausted = error {
                fail(BluetoothError(.timedOut, "the payee stopped acknowledging (\(error))"))
            }
        }
        if let reason = events.closed {
            fail(BluetoothError(.notConnected, "the payee closed the link (\(reason))"))
        }
    }

    private func write(_ datagrams: [[UInt8]]) async {
        for datagram in datagrams {
            bytesWritten += datagram.count
            if let raw = socket?.raw, let watch {
                // send(MSG_NOSIGNAL): a socket BlueZ closed gives EPIPE, not a SIGPIPE. A full
                // socket is waited on until it drains, without blocking the actor's thread; one
                // that stays full drops the datagram, which the window sends again.
                while case .timedOut? = socket?.writeAll(datagram, until: .now, socket: true) {
                    guard await watch.wait(raw, for: .writable, timeout: .seconds(2)) == .ready
                    else { break }
                }
            } else {
                // A lost datagram is the window's to resend; the error itself says nothing more.
                try? await rx.write(datagram, kind: .command)
            }
        }
    }

    private func expireReceivers(after timeout: Duration) {
        let waiting = receivers
        receivers = []
        for receiver in waiting {
            receiver.resume(
                returning: .failure(
                    BluetoothError(.timedOut, "no message from the payee within \(timeout)")))
        }
    }

    private func fail(_ error: BluetoothError) {
        if failure == nil { failure = error }
        let waiting = receivers
        receivers = []
        for receiver in waiting { receiver.resume(returning: .failure(error)) }
        if let sending {
            self.sending = nil
            sending.done.resume(returning: .failure(error))
        }
    }
}
