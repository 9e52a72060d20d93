import BlueZ
import Link
import Noise
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

    /// The name a payee advertises: the advertisement proper is full (service UUID, flags,
    /// tag), so BlueZ sends it in the scan response.
    public static let localName = "Tender"

    /// Datagrams stay within 244 bytes whatever MTU is negotiated: larger ATT values do not
    /// cross every controller (Docs/BENCHMARKS.md, "Bluetooth LE").
    public static let maxDatagramBytes = 244
}

extension TenderGATT {
    /// The company id the tag is advertised under: 0xFFFF, reserved for use without a
    /// registered company.
    public static let tagCompany: UInt16 = 0xFFFF

    /// The advertised tag of a request (6 bytes at most: all a legacy advertisement has left
    /// beside the service UUID): the first 4 bytes of its id, then its amount as an unsigned
    /// LEB128 when that takes at most 2 bytes.
    public static func tag(requestID: [UInt8], amount: UInt128) -> [UInt8] {
        var tag = Array(requestID.prefix(4))
        var rest = amount
        var encoded: [UInt8] = []
        repeat {
            let low = UInt8(truncatingIfNeeded: rest & 0x7F)
            rest >>= 7
            encoded.append(rest == 0 ? low : low | 0x80)
        } while rest != 0
        if encoded.count <= 2 { tag += encoded }
        return tag
    }

    /// What a tag says: the request id's first 4 bytes and, when present, the amount.
    public static func readTag(_ tag: [UInt8]) -> (idPrefix: [UInt8], amount: UInt128?)? {
        guard tag.count <= 6 else { return nil }
        guard tag.count >= 4 else { return nil }
        var amount: UInt128 = 0
        var shift: UInt128 = 0
        for (index, byte) in tag.dropFirst(4).enumerated() {
            guard index < 2 else { return (Array(tag.prefix(4)), nil) }
            amount |= UInt128(byte & 0x7F) << shift
            shift += 7
            if byte & 0x80 == 0 { return (Array(tag.prefix(4)), amount) }
        }
        return (Array(tag.prefix(4)), nil)
    }
}

/// The node's session key from its 32 stored bytes.
public func sessionKey(raw: [UInt8]) throws(BluetoothError) -> NoisePrivateKey {
    do { return try NoisePrivateKey(rawRepresentation: raw) } catch {
        throw BluetoothError(.bluez, "the session key file does not hold an X25519 key: \(error)")
    }
}
