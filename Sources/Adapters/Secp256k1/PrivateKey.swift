import CSecp256k1
import Posix

/// A secp256k1 secret scalar. Its bytes are reachable only through `withUnsafeBytes`, and are
/// wiped when the last copy of the key goes away.
public struct PrivateKey: Sendable {
    private let storage: SecretScalar
    private var secret: [UInt8] { storage.bytes }

    /// Accepts 32 bytes encoding a scalar in [1, n-1].
    public init(bytes: some Collection<UInt8>) throws(Secp256k1Error) {
        var candidate = Array(bytes)
        guard candidate.count == 32,
            secp256k1_ec_seckey_verify(verifyingContext, candidate) == 1
        else {
            secureWipe(&candidate)
            throw .invalidPrivateKey
        }
        storage = SecretScalar(candidate)
    }

    /// A fresh key from the given generator (the system's CSPRNG unless a test injects one).
    public static func generate(
        using generator: inout some RandomNumberGenerator
    ) -> PrivateKey {
        while true {
            var candidate = [UInt8](repeating: 0, count: 32)
            for index in candidate.indices { candidate[index] = generator.next() }
            defer { secureWipe(&candidate) }
            if let key = try? PrivateKey(bytes: candidate) { return key }
        }
    }

    public static func generate() -> PrivateKey {
        var generator = SystemRandomNumberGenerator()
        return generate(using: &generator)
    }

    /// Scoped access to the 32 secret bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try secret.withUnsafeBytes(body)
    }

    public var publicKey: PublicKey {
        var point = secp256k1_pubkey()
        // Cannot fail: the scalar was validated on construction.
        precondition(secp256k1_ec_pubkey_create(signingContext.pointer, &point, secret) == 1)
        return PublicKey(point: point)
    }

    /// ECDSA over a 32-byte digest with an RFC 6979 deterministic nonce (libsecp256k1's default),
    /// always low-s, with the recovery id. `extraEntropy` (32 bytes) is mixed into the nonce
    /// (RFC 6979 §3.6): another valid signature of the same digest.
    public func sign(
        digest: some Collection<UInt8>, extraEntropy: [UInt8]? = nil
    ) throws(Secp256k1Error) -> RecoverableSignature {
        let message = Array(digest)
        guard message.count == 32 else { throw .invalidDigestLength(message.count) }
        // RFC 6979 §3.6 additional data: another valid signature of the same digest.
        guard extraEntropy == nil || extraEntropy?.count == 32 else {
            throw .invalidDigestLength(extraEntropy?.count ?? 0)
        }
        var signature = secp256k1_ecdsa_recoverable_signature()
        let signed = extraEntropy.withUnsafeOptionalBytes { entropy in
            secp256k1_ecdsa_sign_recoverable(
                signingContext.pointer, &signature, message, secret, nil, entropy)
        }
        guard signed == 1 else { throw .invalidPrivateKey }
        var compact = [UInt8](repeating: 0, count: 64)
        var recoveryID: Int32 = 0
        secp256k1_ecdsa_recoverable_signature_serialize_compact(
            verifyingContext, &compact, &recoveryID, &signature)
        return RecoverableSignature(compact: compact, recoveryID: UInt8(recoveryID))
    }

    /// `(self + tweak) mod n`, the BIP32 child-key step.
    public func adding(tweak: some Collection<UInt8>) throws(Secp256k1Error) -> PrivateKey {
        let scalar = Array(tweak)
        guard scalar.count == 32 else { throw .tweakOutOfRange }
        var result = secret
        defer { secureWipe(&result) }
        guard secp256k1_ec_seckey_tweak_add(verifyingContext, &result, scalar) == 1 else {
            throw .tweakOutOfRange
        }
        return try PrivateKey(bytes: result)
    }

    /// `(self · tweak) mod n`.
    public func multiplied(by tweak: some Collection<UInt8>) throws(Secp256k1Error) -> PrivateKey {
        let scalar = Array(tweak)
        guard scalar.count == 32 else { throw .tweakOutOfRange }
        var result = secret
        defer { secureWipe(&result) }
        guard secp256k1_ec_seckey_tweak_mul(verifyingContext, &result, scalar) == 1 else {
            throw .tweakOutOfRange
        }
        return try PrivateKey(bytes: result)
    }
}

/// The one heap copy of a key's 32 bytes, wiped on release. Immutable after `init`, hence
/// Sendable; copies of a `PrivateKey` share it.
private final class SecretScalar: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    deinit {
        // The array's buffer is uniquely ours (never handed out mutable): wipe it in place.
        bytes.withUnsafeBytes { secureWipe(UnsafeMutableRawBufferPointer(mutating: $0)) }
    }
}

/// Printing or dumping a key never shows its bytes.
extension PrivateKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "PrivateKey(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension Optional where Wrapped == [UInt8] {
    /// The bytes' address for a C call taking an optional pointer (nil stays NULL).
    fileprivate func withUnsafeOptionalBytes<R>(_ body: (UnsafeRawPointer?) -> R) -> R {
        guard let bytes = self else { return body(nil) }
        return bytes.withUnsafeBytes { body($0.baseAddress) }
    }
}
