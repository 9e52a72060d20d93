import Codecs
import Noise

/// The first byte of a session's first message: which Noise pattern the payer chose.
enum SessionPattern: UInt8 {
    /// Noise_XX: neither side knows the other's static key (found by discovery).
    case xx = 0x01
    /// Noise_IK: the payer has the payee's static key from its request code (`k=`).
    case ik = 0x02

    var noise: HandshakePattern { self == .xx ? .xx : .ik }
}

/// What binds a session to Tender's protocol: both sides hash it into the handshake.
public enum SessionPrologue {
    public static let bytes = Array("tender/2 payment session".utf8)
}

func decodeMessage<T>(
    _ payload: [UInt8], _ make: (CBOR) throws(SessionError) -> T
) throws(SessionError) -> T {
    let cbor: CBOR
    do { cbor = try CBOR.decode(payload, options: SessionMessages.decoding) } catch {
        throw SessionError.malformed("not deterministic CBOR: \(error)")
    }
    return try make(cbor)
}
