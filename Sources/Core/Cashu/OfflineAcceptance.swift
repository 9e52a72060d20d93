import Codecs
import Secp256k1

/// The checks a payee makes on a token with nothing online (Docs/CASHU.md): each proof is signed
/// by a keyset of that mint that the payee holds, for its amount, as its DLEQ proof shows
/// (NUT-12); no secret repeats; a lock, if any, is to this payee alone. What offline checks
/// cannot show is whether the payer spent the same proofs elsewhere: only the mint knows,
/// which is why a payee swaps at the first sync, and why a lock to the payee is safer.
public struct OfflineAcceptance: Sendable {
    public enum LockPolicy: Sendable {
        /// Plain proofs are taken (the payer could still spend them first).
        case acceptUnlocked
        /// Every proof must be locked to the payee's key.
        case requireLockToPayee
    }

    /// The keysets the payee holds for the token's mint (from its last sync).
    public let keysets: [Keyset]
    /// The payee's P2PK key, when it has one.
    public let payeeKey: PublicKey?
    public let lockPolicy: LockPolicy
    /// Unix seconds, for locktimes and keyset expiry.
    public let now: UInt64
    /// false only when the token is swapped at once, the mint online (it checks the
    /// signatures then): a proof without a DLEQ proof is taken. One that has it is checked.
    public let requireDLEQ: Bool
    /// With `requireLockToPayee`: how long a lock must still hold. A lock that ends sooner
    /// lets the payer's refund key take the proof back before the payee's next swap, so it
    /// protects nothing.
    public let lockMargin: UInt64

    /// What `requireLockToPayee` asks of a lock unless told: an hour beyond now (a node
    /// syncs every 30 s; wallets lock for a day by default, nutshell's LOCKTIME_DELTA_SECONDS).
    public static let defaultLockMargin: UInt64 = 3600

    public init(
        keysets: [Keyset], payeeKey: PublicKey?, lockPolicy: LockPolicy, now: UInt64,
        requireDLEQ: Bool = true, lockMargin: UInt64 = defaultLockMargin
    ) {
        self.keysets = keysets
        self.payeeKey = payeeKey
        self.lockPolicy = lockPolicy
        self.now = now
        self.requireDLEQ = requireDLEQ
        self.lockMargin = lockMargin
    }

    /// What was accepted: the total, and until when the payee alone can spend it (the earliest
    /// locktime; nil when nothing is locked or every lock is permanent).
    public struct Accepted: Hashable, Sendable {
        public let amount: UInt64
        public let lockedProofs: Int
        public let lockedUntil: UInt64?
        /// The full keyset id of each proof, in order (a token may carry the short form).
        public let keysetIDs: [[UInt8]]
        /// Whether each proof, in order, is locked to the payee.
        public let locked: [Bool]
    }

    /// Longest secret taken: nutshell's default limit; a longer one the mint would refuse.
    public static let maximumSecretBytes = 512

    /// Why a secret cannot be taken, or nil. A mint refuses empty or overlong ones, and text a
    /// store or another parser could read differently (control characters, JSON behind
    /// spaces) could make a proof unspendable or spendable by someone else.
    static func problem(secret: String) -> String? {
        let bytes = Array(secret.utf8)
        guard !bytes.isEmpty else { return "its secret is empty" }
        guard bytes.count <= maximumSecretBytes else {
            return "its secret is longer than \(maximumSecretBytes) bytes"
        }
        guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            return "its secret holds control characters"
        }
        if let first = bytes.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
            first > 0
        {
            return "its secret starts with spaces"
        }
        return nil
    }

    public func check(_ token: Token) throws(CashuError) -> Accepted {
        var secrets: Set<String> = []
        var locked = 0
        var lockedUntil: UInt64?
        var keysetIDs: [[UInt8]] = []
        var lockedFlags: [Bool] = []
        for (index, proof) in token.proofs.enumerated() {
            let field = "proofs[\(index)]"
            if let problem = Self.problem(secret: proof.secret) {
                throw CashuError(.malformed, field: "\(field).secret", problem)
            }
            guard secrets.insert(proof.secret).inserted else {
                throw CashuError(
                    .duplicateSecret, field: field, "the same secret appears twice in the token")
            }
            let keyset = try resolve(proof.keysetID, field: field)
            guard keyset.unit == token.unit else {
                throw CashuError(
                    .malformed, field: field,
                    "its keyset \(keyset.idHex) is in \(keyset.unit), the token says \(token.unit)")
            }
            if let expiry = keyset.finalExpiry, expiry != 0, now >= expiry {
                throw CashuError(
                    .unknownKeyset, field: field,
                    "keyset \(keyset.idHex) expired at \(expiry); the mint may refuse it")
            }
            guard let mintKey = keyset.keys[proof.amount] else {
                throw CashuError(
                    .unknownKeyset, field: "\(field).amount",
                    "keyset \(keyset.idHex) has no key for amount \(proof.amount)")
            }
            if let dleq = proof.dleq, dleq.r != nil {
                guard
                    dleq.verifies(
                        mintKey: mintKey, secret: Array(proof.secret.utf8),
                        signature: proof.signature)
                else {
                    throw CashuError(
                        .badSignature, field: "\(field).dleq",
                        "the DLEQ proof does not show keyset \(keyset.idHex)'s key for \(proof.amount) signed this proof: forged or damaged"
                    )
                }
            } else if requireDLEQ {
                throw CashuError(
                    .missingField, field: "\(field).dleq",
                    "no DLEQ proof with its blinding factor: the mint's signature cannot be checked offline (NUT-12)"
                )
            }
            switch try lockStatus(proof, field: field) {
            case .unlocked: lockedFlags.append(false)
            case .until(let time):
                // A lock still in force ends after now (`P2PKLock.reliance`).
                if case .requireLockToPayee = lockPolicy, let time, time - now < lockMargin {
                    throw CashuError(
                        .locked, field: "\(field).secret",
                        "its lock ends at \(time), in \(time - now) s: the payer could take it back before it is swapped (a lock of at least \(lockMargin) s is asked)"
                    )
                }
                locked += 1
                lockedFlags.append(true)
                if let time { lockedUntil = min(lockedUntil ?? time, time) }
            }
            keysetIDs.append(keyset.id)
        }
        guard let amount = token.amount else {
            throw CashuError(.malformed, field: "proofs", "amounts overflow 64 bits")
        }
        return Accepted(
            amount: amount, lockedProofs: locked, lockedUntil: lockedUntil, keysetIDs: keysetIDs,
            locked: lockedFlags)
    }

    /// The held keyset a proof names: by its full id, or by the 8-byte short id when exactly
    /// one held keyset starts with it (NUT-00).
    func resolve(_ id: [UInt8], field: String) throws(CashuError) -> Keyset {
        let matches = keysets.filter { $0.id == id || (id.count == 8 && $0.id.starts(with: id)) }
        guard matches.count == 1 else {
            let hex = Hex.encode(id, prefix: false)
            throw CashuError(
                .unknownKeyset, field: "\(field).id",
                matches.isEmpty
                    ? "keyset \(hex) is not one this wallet holds for the mint: sync with the mint first"
                    : "short keyset id \(hex) matches \(matches.count) keysets")
        }
        return matches[0]
    }

    private enum LockStatus { case unlocked, until(UInt64?) }

    private func lockStatus(_ proof: Proof, field: String) throws(CashuError) -> LockStatus {
        guard let condition = try proof.condition() else {
            guard case .acceptUnlocked = lockPolicy else {
                throw CashuError(
                    .locked, field: field,
                    "is not locked to this payee's key, which this payee requires")
            }
            return .unlocked
        }
        guard condition.kind == "P2PK" else {
            throw CashuError(
                .locked, field: "\(field).secret",
                "has a \(condition.kind) spending condition, which this wallet cannot meet")
        }
        let lock = try P2PKLock(condition)
        guard lock.signatureFlag == .inputs else {
            // SIG_ALL binds every input and output of a swap to one signature set (NUT-11):
            // such proofs cannot be swapped beside others, so they are not taken.
            throw CashuError(
                .locked, field: "\(field).secret",
                "is locked with SIG_ALL, which this wallet does not take")
        }
        guard let payeeKey else {
            throw CashuError(
                .locked, field: "\(field).secret", "is locked to a key, and this payee has none")
        }
        switch lock.reliance(for: payeeKey, now: now) {
        case .payeeOnly: return .until(nil)
        case .payeeOnlyUntil(let time): return .until(time)
        case .notPayee(let why): throw CashuError(.locked, field: "\(field).secret", why)
        }
    }
}
