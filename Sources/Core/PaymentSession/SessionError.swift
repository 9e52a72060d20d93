import Noise

/// Why a session ended early. Any error ends the session: nothing in it is retried.
public enum SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The Noise handshake or a record failed (wrong key, altered or replayed bytes).
    case noise(NoiseError)
    /// A message that decrypted but does not say what it must.
    case malformed(String)
    /// A message arrived when the other kind was expected.
    case unexpected(String)
    /// The first message names a pattern this node does not speak.
    case unknownPattern(UInt8)

    public var description: String {
        switch self {
        case .noise(let error): "session: \(error)"
        case .malformed(let what): "session message malformed: \(what)"
        case .unexpected(let what): "session: unexpected \(what)"
        case .unknownPattern(let byte):
            "session: unknown handshake pattern 0x\(String(byte, radix: 16))"
        }
    }
}
