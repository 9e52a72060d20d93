import NodeKit
import Posix

extension DataDirectory {
    /// The node's X25519 session key for Bluetooth (its Noise static key, published as the
    /// `k=` of its requests): 32 random bytes, made on first use, readable by the owner only.
    public var sessionKey: String { path + "/" + Names.sessionKey }

    public func loadOrCreateSessionKey() throws(NodeError) -> [UInt8] {
        if let bytes = try? DurableFile.read(sessionKey, limit: 64) {
            guard bytes.count == 32 else {
                throw NodeError(
                    .key("\(sessionKey) holds \(bytes.count) bytes, not a 32-byte session key"))
            }
            return bytes
        }
        try create()
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        do { try DurableFile.write(bytes, to: sessionKey, mode: 0o600, replacing: false) } catch {
            throw NodeError(.io("cannot write \(sessionKey): \(error)"))
        }
        return bytes
    }
}
