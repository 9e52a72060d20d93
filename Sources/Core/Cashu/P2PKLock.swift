import Codecs
import Crypto
import Secp256k1

/// A NUT-11 Pay-to-Public-Key condition, read strictly: the keys that may sign, how many must,
/// until when, and who may sign after that.
public struct P2PKLock: Hashable, Sendable {
    public enum SignatureFlag: String, Hashable, Sendable {
        case inputs = "SIG_INPUTS"
        case all = "SIG_ALL"
    }

    /// The `data` key and the `pubkeys` tag's keys, in that order.
    public let signers: [PublicKey]
    public let requiredSignatures: Int
    /// Unix time the lock ends; nil for a permanent lock.
    public let locktime: UInt64?
    /// Why the locktime tag cannot be relied on (not one plain decimal number): NUT-11 calls
    /// such a lock permanent, while mints parse it leniently (`-1`, `1_0`, ` 5`), so no one
    /// can say when others may spend it.
    public let locktimeProblem: String?
    /// Keys that may also sign once `locktime` has passed.
    public let refundKeys: [PublicKey]
    public let requiredRefundSignatures: Int
    public let signatureFlag: SignatureFlag

    public init(_ condition: SpendingCondition) throws(CashuError) {
        guard condition.kind == "P2PK" else {
            throw CashuError(.unsupported, field: "secret.kind", "is \(condition.kind), not P2PK")
        }
        func key(_ hex: String, _ field: String) throws(CashuError) -> PublicKey {
            guard let bytes = try? Hex.decode(hex), bytes.count == 33,
                let key = try? PublicKey(serialized: bytes)
            else {
                throw CashuError(.malformed, field: field, "is not a 33-byte compressed public key")
            }
            return key
        }
        var signers = [try key(condition.data, "secret.data")]
        for (index, hex) in (try condition.values(of: "pubkeys") ?? []).enumerated() {
            signers.append(try key(hex, "secret.tags.pubkeys[\(index)]"))
        }
        var refund: [PublicKey] = []
        for (index, hex) in (try condition.values(of: "refund") ?? []).enumerated() {
            refund.append(try key(hex, "secret.tags.refund[\(index)]"))
        }
        func count(_ tag: String, of keys: Int) throws(CashuError) -> Int {
            guard let values = try condition.values(of: tag) else { return 1 }
            guard values.count == 1, let value = Int(values[0]), value >= 1, value <= max(keys, 1)
            else {
                throw CashuError(
                    .malformed, field: "secret.tags.\(tag)",
                    "must be one whole number from 1 to the \(keys) keys it counts (NUT-11)")
            }
            return value
        }
        let required = try count("n_sigs", of: signers.count)
        let requiredRefund = try count("n_sigs_refund", of: refund.count)
        var locktime: UInt64?
        var locktimeProblem: String?
        if let values = try condition.values(of: "locktime") {
            if values.count == 1, Self.isPlainDecimal(values[0]), let value = UInt64(values[0]) {
                locktime = value
            } else {
                locktimeProblem =
                    "its locktime \(values) is not one plain Unix time: mints read it otherwise"
            }
        }
        var flag = SignatureFlag.inputs
        if let values = try condition.values(of: "sigflag") {
            guard values.count == 1, let parsed = SignatureFlag(rawValue: values[0]) else {
                throw CashuError(
                    .malformed, field: "secret.tags.sigflag", "is not SIG_INPUTS or SIG_ALL")
            }
            flag = parsed
        }
        self.signers = signers
        self.requiredSignatures = required
        self.locktime = locktime
        self.locktimeProblem = locktimeProblem
        self.refundKeys = refund
        self.requiredRefundSignatures = requiredRefund
        self.signatureFlag = flag
    }

    /// What a payee holding `key` can rely on, offline, at Unix time `now`.
    public enum Reliance: Hashable, Sendable {
        /// Only `key` can spend it, for good.
        case payeeOnly
        /// Only `key` can spend it until this time; then others can (the refund keys, or anyone
        /// when there are none): it must be swapped before.
        case payeeOnlyUntil(UInt64)
        /// Someone else can spend it, or `key` cannot alone: not a payment to this payee.
        case notPayee(String)
    }

    /// `1` to `9999999999999999999` with no sign, space, separator or leading zero.
    static func isPlainDecimal(_ text: String) -> Bool {
        let digits = Array(text.utf8)
        return (1...19).contains(digits.count) && digits[0] != UInt8(ascii: "0")
            && digits.allSatisfy { (0x30...0x39).contains($0) }
    }

    public func reliance(for key: PublicKey, now: UInt64) -> Reliance {
        if let locktimeProblem { return .notPayee(locktimeProblem) }
        let others = signers.filter { $0 != key }
        if !others.isEmpty {
            return .notPayee(
                signers.contains(key)
                    ? "\(others.count) other key(s) can sign for it too"
                    : "it is locked to \(Hex.encode(signers[0].compressed, prefix: false)), not to this payee"
            )
        }
        guard requiredSignatures <= 1 else {
            return .notPayee("it needs \(requiredSignatures) signatures from distinct keys")
        }
        guard let locktime else { return .payeeOnly }
        if now >= locktime {
            return .notPayee(
                refundKeys.isEmpty
                    ? "its lock ended at \(locktime): anyone holding it can spend it"
                    : "its lock ended at \(locktime): the refund key(s) can take it back")
        }
        return .payeeOnlyUntil(locktime)
    }

    /// The NUT-11 message a `SIG_INPUTS` signature covers: SHA-256 of the secret text.
    public static func message(secret: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(secret.utf8)))
    }

    /// Whether `witness` (NUT-11 `{"signatures": [hex, …]}`) holds valid signatures over
    /// `message` by at least `required` distinct keys of `keys`.
    public static func isSatisfied(
        witness: String?, message: [UInt8], keys: [PublicKey], required: Int
    ) -> Bool {
        guard let witness, let json = try? JSON.parse(Array(witness.utf8)),
            let signatures = json["signatures"]?.arrayValue
        else { return false }
        var signed: Set<PublicKey> = []
        for entry in signatures {
            guard let hex = entry.stringValue, let signature = try? Hex.decode(hex) else {
                continue
            }
            for key in keys
            where Schnorr.isValid(signature: signature, message: message, publicKey: key.xOnly) {
                signed.insert(key)
            }
        }
        return signed.count >= required
    }

    /// The witness text carrying `signatures`.
    public static func witness(signatures: [[UInt8]]) -> String {
        JSON.object([
            ("signatures", .array(signatures.map { .string(Hex.encode($0, prefix: false)) }))
        ])
        .serialized
    }
}
