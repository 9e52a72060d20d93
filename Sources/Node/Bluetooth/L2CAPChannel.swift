import BlueZ
import CBlueZ
import Link
import Posix

#if canImport(Glibc)
import Glibc
#endif

/// An LE L2CAP connection-oriented channel (credit based, SOCK_SEQPACKET) carrying whole
/// messages in the Link's packet framing (`PacketFramer`, `PacketReassembler` in
/// Sources/Core/Link/PacketChannel.swift). The channel retransmits and keeps order itself, so there
/// are no acks or timers here. Security is `BT_SECURITY_LOW` (no pairing): the payment
/// session above authenticates its peer.
///
/// Both ends bind with an LE address type and the payer connects with the payee's (public or
/// random): without one the kernel takes the channel for BR/EDR and nothing arrives
/// (Tests/BLELab/nodes/ceiling_l2cap.py).
public actor L2CAPChannel {
    /// The socket; -1 once closed.
    private var raw: Int32
    /// Where its reads and sends wait for the kernel (shared with its listener's channels).
    private let watch: ReadinessWatch
    private var framer: PacketFramer
    private var reassembler: PacketReassembler
    /// Largest SDU each way, as the kernel negotiated.
    public nonisolated let sendMTU: Int
    public nonisolated let receiveMTU: Int
    /// SDU bytes sent and received, for the figures.
    public private(set) var bytesWritten = 0
    public private(set) var bytesRead = 0
    /// When the first SDU of the message last received arrived (receiver-side rates).
    public private(set) var lastMessageBegan: ContinuousClock.Instant?

    /// Takes ownership of `raw`, a connected L2CAP socket (closed on failure); waits on
    /// `watch`.
    init(socket raw: Int32, watch: ReadinessWatch) throws(BluetoothError) {
        let limits: (send: PacketLimits, receive: PacketLimits)
        do {
            let cap = PacketLimits.standard.maxMessageBytes
            limits = (
                try PacketLimits(
                    mtu: try L2CAPSocket.mtu(of: raw, option: BT_SNDMTU), maxMessageBytes: cap),
                try PacketLimits(
                    mtu: try L2CAPSocket.mtu(of: raw, option: BT_RCVMTU), maxMessageBytes: cap)
            )
        } catch {
            Glibc.close(raw)
            throw BluetoothError(.peerMisbehaved, "L2CAP MTU: \(error)")
        }
        self.raw = raw
        self.watch = watch
        framer = PacketFramer(limits: limits.send)
        reassembler = PacketReassembler(limits: limits.receive)
        sendMTU = limits.send.mtu
        receiveMTU = limits.receive.mtu
    }

    deinit { if raw >= 0 { Glibc.close(raw) } }

    /// Opens a channel to `psm` on the device at `address` (an LE link to it may already be
    /// up: the channel then rides on it).
    public static func connect(
        to address: String, random: Bool, psm: UInt16, timeout: Duration = .seconds(20)
    ) async throws(BluetoothError) -> L2CAPChannel {
        let watch: ReadinessWatch
        do { watch = try ReadinessWatch() } catch {
            throw BluetoothError(.bluez, "L2CAP: \(error)")
        }
        let raw = try L2CAPSocket.open()
        do {
            try L2CAPSocket.bind(raw, psm: 0)
            let type = UInt8(random ? BDADDR_LE_RANDOM : BDADDR_LE_PUBLIC)
            try await L2CAPSocket.connect(
                raw, to: address, type: type, psm: psm, timeout: timeout, watch: watch)
        } catch {
            watch.forget(raw)
            Glibc.close(raw)
            throw error
        }
        return try L2CAPChannel(socket: raw, watch: watch)
    }

    /// Sends one message; returns once the kernel took all its SDUs (it sends them as the
    /// peer grants credits).
    public func send(_ message: [UInt8]) async throws(BluetoothError) {
        let sdus: [[UInt8]]
        do { sdus = try framer.sdus(for: message) } catch {
            throw BluetoothError(.bluez, "L2CAP: \(error)")
        }
        for sdu in sdus {
            while true {
                guard raw >= 0 else { throw BluetoothError(.notConnected, "L2CAP: closed") }
                // MSG_NOSIGNAL: a channel the peer closed gives EPIPE, not a SIGPIPE.
                let sent = sdu.withUnsafeBytes {
                    Glibc.send(raw, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if sent == sdu.count {
                    bytesWritten += sent
                    break
                }
                let code = errno
                guard sent < 0, code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
                    throw BluetoothError(.notConnected, "L2CAP send: errno \(code)")
                }
                // Out of credits: the kernel takes more as the peer returns them, and says so.
                guard await watch.wait(raw, for: .writable) == .ready else {
                    throw BluetoothError(.notConnected, "L2CAP: closed")
                }
            }
        }
    }

    /// The next whole message, or a failure after `timeout` or when the channel ends.
    public func receive(timeout: Duration) async throws(BluetoothError) -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: receiveMTU)
        while true {
            guard raw >= 0 else { throw BluetoothError(.notConnected, "L2CAP: closed") }
            let count = buffer.withUnsafeMutableBytes { recv(raw, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                bytesRead += count
                if reassembler.bufferedBytes == 0 { lastMessageBegan = .now }
                do {
                    if let message = try reassembler.receive(Array(buffer[0..<count])) {
                        return message.bytes
                    }
                } catch {
                    throw BluetoothError(.peerMisbehaved, "L2CAP: \(error)")
                }
                continue
            }
            let code = errno
            if count == 0 { throw BluetoothError(.notConnected, "L2CAP: the peer closed") }
            guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
                throw BluetoothError(.notConnected, "L2CAP recv: errno \(code)")
            }
            let left = deadline - ContinuousClock.now
            // Each SDU read as it lands: the peer gets credits back only as this side reads.
            switch left > .zero ? await watch.wait(raw, for: .readable, timeout: left) : .timedOut {
            case .ready: continue
            case .timedOut: throw BluetoothError(.timedOut, "L2CAP: no message within \(timeout)")
            case .cancelled, .closed: throw BluetoothError(.notConnected, "L2CAP: closed")
            }
        }
    }

    public func close() {
        if raw >= 0 {
            watch.forget(raw)
            Glibc.close(raw)
        }
        raw = -1
    }
}

/// The payee's side: listens on an LE PSM and accepts channels.
public actor L2CAPListener {
    /// The socket; -1 once closed.
    private var raw: Int32
    /// Where accepts, and the accepted channels' reads and sends, wait for the kernel.
    private let watch: ReadinessWatch
    public nonisolated let psm: UInt16

    /// Listens on `psm` (LE dynamic PSMs: 0x0080–0x00FF) for any LE address type.
    public init(psm: UInt16) throws(BluetoothError) {
        do { watch = try ReadinessWatch() } catch {
            throw BluetoothError(.bluez, "L2CAP: \(error)")
        }
        let raw = try L2CAPSocket.open()
        do throws(BluetoothError) {
            try L2CAPSocket.bind(raw, psm: psm)
            guard listen(raw, 4) == 0 else {
                throw BluetoothError(.bluez, "L2CAP listen on PSM \(psm): errno \(errno)")
            }
        } catch {
            Glibc.close(raw)
            throw error
        }
        self.psm = psm
        self.raw = raw
    }

    deinit { if raw >= 0 { Glibc.close(raw) } }

    /// The next channel a central opens, or a failure after `timeout`.
    public func accept(timeout: Duration) async throws(BluetoothError) -> L2CAPChannel {
        let deadline = ContinuousClock.now + timeout
        while true {
            guard raw >= 0 else { throw BluetoothError(.notConnected, "L2CAP listener closed") }
            let accepted = Glibc.accept(raw, nil, nil)
            if accepted >= 0 {
                return try L2CAPChannel(socket: L2CAPSocket.adopt(accepted), watch: watch)
            }
            let code = errno
            guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
                throw BluetoothError(.bluez, "L2CAP accept: errno \(code)")
            }
            let left = deadline - ContinuousClock.now
            switch left > .zero ? await watch.wait(raw, for: .readable, timeout: left) : .timedOut {
            case .ready: continue
            case .timedOut: throw BluetoothError(.timedOut, "no L2CAP channel within \(timeout)")
            case .cancelled, .closed:
                throw BluetoothError(.notConnected, "L2CAP listener closed")
            }
        }
    }

    public func close() {
        if raw >= 0 {
            watch.forget(raw)
            Glibc.close(raw)
        }
        raw = -1
    }
}
