import BlueZ
import Codecs

/// What the info characteristic holds (Docs/PROTOCOL.md §10.1), as deterministic CBOR: the
/// payee's current request envelope under key 1 and, when the payee listens on an LE L2CAP
/// channel, its PSM under key 2.
public struct PayeeInfo: Sendable, Equatable {
    public var request: [UInt8]
    public var psm: UInt16?

    public init(request: [UInt8], psm: UInt16?) {
        self.request = request
        self.psm = psm
    }

    public var encoded: [UInt8] {
        var entries = [CBOR.Entry(.unsigned(1), .bytes(request))]
        if let psm { entries.append(CBOR.Entry(.unsigned(2), .unsigned(UInt64(psm)))) }
        return CBOR.map(entries).encoded()
    }

    public init(decoding bytes: [UInt8]) throws(BluetoothError) {
        let cbor: CBOR
        do { cbor = try CBOR.decode(bytes) } catch {
            throw BluetoothError(.peerMisbehaved, "the payee's info is not CBOR: \(error)")
        }
        guard let entries = cbor.mapEntries, let request = cbor[.unsigned(1)]?.bytesValue,
            entries.allSatisfy({ [1, 2].contains($0.key.unsignedValue ?? 0) })
        else {
            throw BluetoothError(.peerMisbehaved, "the payee's info is not a Tender info map")
        }
        self.request = request
        switch cbor[.unsigned(2)] {
        case nil: psm = nil
        case let value?:
            guard let number = value.unsignedValue, (0x80...0xFF).contains(number) else {
                throw BluetoothError(.peerMisbehaved, "the payee's PSM is not an LE dynamic PSM")
            }
            psm = UInt16(number)
        }
    }
}

extension TenderGATT {
    /// The PSM a payee listens on for LE L2CAP channels (the LE dynamic range is 0x80–0xFF).
    public static let psm: UInt16 = 0x0087
}
