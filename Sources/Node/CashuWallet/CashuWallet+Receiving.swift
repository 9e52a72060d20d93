import Cashu
import CashuMint
import CashuStore
import Foundation
import NodeKit

extension CashuWallet {
    /// Takes a token offline: it must come from a mint whose keys the wallet holds, and pass
    /// every check `OfflineAcceptance` makes. Recorded as received (at risk until swapped) in
    /// one transaction; refused whole, with nothing written, otherwise.
    public func receive(
        _ text: String, now: UInt64, requireLock: Bool = false, requireDLEQ: Bool = true,
        takingBack: Bool = false
    ) throws(NodeError) -> CashuPayment {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let token: Token
        do { token = try Token.decode(trimmed) } catch {
            throw Self.refused(error).noting(
                "the token is incomplete or damaged: ask for it again, copied whole")
        }
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
                lockPolicy: requireLock ? .requireLockToPayee : .acceptUnlocked, now: now,
                requireDLEQ: requireDLEQ
            ).check(token)
            return try store.receive(
                token, text: trimmed, accepted: accepted, now: now, takingBack: takingBack)
        } catch let error as CashuError
            where error.kind == .missingField && error.field.hasSuffix(".dleq")
        {
            throw Self.refused(error).noting(
                "ask the payer for a token that carries DLEQ proofs (most wallets add them), or take it with the mint online, swapped at once"
            )
        } catch { throw Self.failed(error) }
    }

    /// Takes a token and swaps it at once, the mint online: the mint checks what cannot be
    /// checked offline (a token without DLEQ proofs). The mint is asked first, so a token is
    /// never recorded unchecked while it cannot be reached.
    public func receiveOnline(
        _ text: String, client: MintClient, now: @Sendable () -> UInt64, requireLock: Bool = false
    ) async throws(NodeError) -> (CashuPayment, CashuSettlement) {
        if let mint = try? Token.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)).mint,
            mint != client.url
        {
            throw NodeError(.usage("the token is from mint \(mint), not \(client.url)"))
        }
        do { _ = try await client.keysetStates() } catch {
            throw NodeError(.unavailable(error.description))
        }
        // Online, a token this wallet gave is taken back: the swap makes it the wallet's own
        // again, unless the payee swapped it first (then the mint refuses it: it was paid).
        let payment = try receive(
            text, now: now(), requireLock: requireLock, requireDLEQ: false, takingBack: true)
        let report = await settle(with: client, now: now)
        let settled: CashuPayment
        do { settled = try store.payment(payment.id) ?? payment } catch { throw Self.failed(error) }
        return (settled, report)
    }
}
