/// Sizes the Noise specification fixes (revision 34, §3 and §11).
public enum NoiseLimits {
    /// The longest Noise message, handshake or transport, in bytes.
    public static let maxMessageLength = 65_535
    /// ChaCha20-Poly1305's authentication tag, added to everything encrypted.
    public static let tagLength = 16
    /// The longest plaintext one transport message can carry.
    public static let maxPlaintextLength = maxMessageLength - tagLength
    /// Curve25519 public keys and shared secrets, and SHA-256 hashes (DHLEN = HASHLEN = 32).
    public static let keyLength = 32
}
