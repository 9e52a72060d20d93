import BlueZ
import CBlueZ
import Posix

#if canImport(Glibc)
import Glibc
#endif

/// The system calls behind `L2CAPChannel` and `L2CAPListener`: non-blocking LE L2CAP sockets
/// (libbluetooth's headers through CBlueZ). Raw descriptors, not Posix's `FileDescriptor`:
/// the actors close theirs in a nonisolated `deinit`, which may only touch Sendable state (and
/// an `isolated deinit` made the release build of a client module fail with "circular
/// reference").
enum L2CAPSocket {
    /// A non-blocking, close-on-exec SOCK_SEQPACKET L2CAP socket at `BT_SECURITY_LOW`.
    static func open() throws(BluetoothError) -> Int32 {
        let type =
            Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            | Int32(SOCK_NONBLOCK.rawValue)
        let raw = socket(AF_BLUETOOTH, type, BTPROTO_L2CAP)
        guard raw >= 0 else {
            throw BluetoothError(.bluez, "L2CAP socket: errno \(errno) (no Bluetooth here?)")
        }
        var security = bt_security(level: UInt8(BT_SECURITY_LOW), key_size: 0)
        let set = setsockopt(
            raw, SOL_BLUETOOTH, BT_SECURITY, &security, socklen_t(MemoryLayout<bt_security>.size))
        guard set == 0 else {
            let code = errno
            close(raw)
            throw BluetoothError(.bluez, "L2CAP BT_SECURITY: errno \(code)")
        }
        return raw
    }

    /// An accepted channel's descriptor, made non-blocking and close-on-exec like `open`'s.
    static func adopt(_ raw: Int32) -> Int32 {
        _ = fcntl(raw, F_SETFD, FD_CLOEXEC)
        _ = fcntl(raw, F_SETFL, fcntl(raw, F_GETFL) | O_NONBLOCK)
        return raw
    }

    /// Binds to this host's adapter (any) with the LE public address type, on `psm` (0: any).
    static func bind(_ raw: Int32, psm: UInt16) throws(BluetoothError) {
        var address = sockaddr_l2()
        address.l2_family = sa_family_t(AF_BLUETOOTH)
        address.l2_psm = psm.littleEndian
        address.l2_bdaddr_type = UInt8(BDADDR_LE_PUBLIC)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(raw, $0, socklen_t(MemoryLayout<sockaddr_l2>.size))
            }
        }
        guard result == 0 else {
            throw BluetoothError(.bluez, "L2CAP bind to PSM \(psm): errno \(errno)")
        }
    }

    /// Connects to `psm` at `address` of LE address `type`, waiting on `watch` until `timeout`.
    static func connect(
        _ raw: Int32, to address: String, type: UInt8, psm: UInt16, timeout: Duration,
        watch: ReadinessWatch
    ) async throws(BluetoothError) {
        var peer = sockaddr_l2()
        peer.l2_family = sa_family_t(AF_BLUETOOTH)
        peer.l2_psm = psm.littleEndian
        peer.l2_bdaddr_type = type
        guard str2ba(address, &peer.l2_bdaddr) == 0 else {
            throw BluetoothError(.bluez, "not a Bluetooth address: \(address)")
        }
        let result = withUnsafePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(raw, $0, socklen_t(MemoryLayout<sockaddr_l2>.size))
            }
        }
        guard result != 0 else { return }
        guard errno == EINPROGRESS || errno == EAGAIN else {
            throw BluetoothError(.notConnected, "L2CAP connect to \(address): errno \(errno)")
        }
        switch await watch.wait(raw, for: .writable, timeout: timeout) {
        case .ready: break
        case .timedOut:
            throw BluetoothError(.timedOut, "L2CAP connect to \(address) PSM \(psm)")
        case .cancelled, .closed:
            throw BluetoothError(.notConnected, "L2CAP connect to \(address): cancelled")
        }
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(raw, SOL_SOCKET, SO_ERROR, &code, &length)
        guard code == 0 else {
            throw BluetoothError(.notConnected, "L2CAP connect to \(address): errno \(code)")
        }
    }

    /// The channel's negotiated MTU: `BT_SNDMTU` or `BT_RCVMTU`.
    static func mtu(of raw: Int32, option: Int32) throws(BluetoothError) -> Int {
        var mtu: UInt16 = 0
        var length = socklen_t(MemoryLayout<UInt16>.size)
        guard getsockopt(raw, SOL_BLUETOOTH, option, &mtu, &length) == 0 else {
            throw BluetoothError(.bluez, "L2CAP MTU option \(option): errno \(errno)")
        }
        return Int(mtu)
    }
}
