import BlueZ
import Link
import Posix

/// Tender's GATT profile (Docs/PROTOCOL.md §10): one primary service with
/// - info (read): what a payer needs before paying (protocol version, payee address, session
///   key, the current request),
/// - rx (write, write-without-response): the payer's link datagrams,
/// - tx (notify): the payee's link datagrams.
public enum TenderGATT {
    public static let service = BluetoothUUID("54454e44-0001-4f8e-9a6b-2c3d4e5f6071")!
    public static let info = BluetoothUUID("54454e44-0002-4f8e-9a6b-2c3d4e5f6071")!
    public static let rx = BluetoothUUID("54454e44-0003-4f8e-9a6b-2c3d4e5f6071")!
    public static let tx = BluetoothUUID("54454e44-0004-4f8e-9a6b-2c3d4e5f6071")!

    /// Datagrams stay within 244 bytes whatever MTU is negotiated: larger ATT values do not
    /// cross every controller (Docs/BENCHMARKS.md, "Bluetooth LE").
    public static let maxDatagramBytes = 244
}

/// The link's clock: the monotonic clock in milliseconds.
func linkNow() -> LinkInstant { LinkInstant(milliseconds: Deadline.now.milliseconds) }
