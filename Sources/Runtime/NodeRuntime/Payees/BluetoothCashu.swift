import Bluetooth
import CashuWallet
import NodeAPI
import NodeKit
import PaymentSession
import Secp256k1
import Synchronization

extension BluetoothPayeeService {
    /// Cashu tokens over the air: a payer that asks gets the node's terms (the mints whose
    /// keys its wallet holds and their units, its lock key and whether it takes only locked
    /// tokens, signed by the wallet key for this session key); a token offered is taken as the
    /// camera and the API take one.
    func cashuTaking(_ cashu: CashuPayee, key: KeyOnce) -> CashuTaking {
        let context = context
        return CashuTaking(
            terms: { sessionKey in
                guard let wallet = try? cashu.wallet(), let key = try? key(),
                    let mints = try? Array(
                        wallet.store.mints().map(\.url).prefix(CashuTerms.maxMints)),
                    let units = try? Set(
                        mints.flatMap { try wallet.store.keysets(mint: $0).map(\.unit) })
                else { return nil }
                // A mint URL or unit too long for the terms is left out, not a broken answer.
                return try? CashuTerms.signed(
                    mints: mints.filter { $0.utf8.count <= CashuTerms.maxMintBytes },
                    units: Array(
                        units.filter { $0.utf8.count <= CashuTerms.maxUnitBytes }.sorted()
                            .prefix(CashuTerms.maxUnits)),
                    lockKey: wallet.lockPublicKey, lockedOnly: cashu.requireLock,
                    sessionKey: sessionKey, by: key)
            },
            take: { token in
                switch context.take(cashuToken: token, via: Self.name) {
                case .success(let payment):
                    return .cashuTaken(
                        CashuTaken(amount: payment.amount, unit: payment.unit, mint: payment.mint))
                case .failure(let error):
                    // No payment ids or proof states to a stranger; a reason short enough for
                    // the answer (1,024 bytes) whatever the token held.
                    if case .exists = error.kind {
                        return .refused(code: error.code, reason: "this token was taken already")
                    }
                    return .refused(code: error.code, reason: String("\(error)".prefix(300)))
                }
            })
    }
}

/// The wallet key, unlocked the first time it is asked for and kept.
final class KeyOnce: Sendable {
    private let unlock: @Sendable () throws -> PrivateKey
    private let key = Mutex<PrivateKey?>(nil)

    init(_ unlock: @escaping @Sendable () throws -> PrivateKey) { self.unlock = unlock }

    func callAsFunction() throws -> PrivateKey {
        if let key = key.withLock({ $0 }) { return key }
        let unlocked = try unlock()
        key.withLock { $0 = unlocked }
        return unlocked
    }
}
