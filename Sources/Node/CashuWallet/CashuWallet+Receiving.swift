import Cashu
import CashuStore
import NodeKit

extension CashuWallet {
    /// Takes a token offline: it must come from a mint whose keys the wallet holds, and pass
    /// every check `OfflineAcceptance` makes. Recorded as received (at risk until swapped) in
    /// one transaction; refused whole, with nothing written, otherwise.
    public func receive(
        _ text: String, now: UInt64, requireLock: Bool = false
    ) throws(NodeError) -> CashuPayment {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let token: Token
        do { token = try Token.decode(trimmed) } catch { throw Self.refused(error) }
        do {
            let keysets = try store.keysets(mint: token.mint)
            guard !keysets.isEmpty else {
                throw NodeError(
                    .missing(
                        "the token is from mint \(token.mint), whose keys this wallet does not hold"
                    ),
                    note: "its proofs cannot be checked offline without them",
                    resolvedBy: .addMint(token.mint))
            }
            let accepted = try OfflineAcceptance(
                keysets: keysets, payeeKey: lockPublicKey,
                lockPolicy: requireLock ? .requireLockToPayee : .acceptUnlocked, now: now
            ).check(token)
            return try store.receive(token, text: trimmed, accepted: accepted, now: now)
        } catch { throw Self.failed(error) }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}

extension Set where Element == Character {
    fileprivate static let whitespacesAndNewlines: Set<Character> = [" ", "\t", "\n", "\r", "\r\n"]
}
