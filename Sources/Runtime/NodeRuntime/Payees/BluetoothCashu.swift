import Bluetooth
import CashuWallet
import NodeAPI
import NodeKit
import PaymentSession
import Secp256k1
import Synchronization

extension BluetoothPayeeService {
    /// Cashu tokens over the air: the hello says the node's terms (the mints whose keys its
    /// wallet holds, its lock key and whether it takes only locked tokens, signed by the
    /// wallet key); a token offered is taken as the camera and the API take one.
    func cashuTaking(_ cashu: CashuPayee, key: KeyOnce) -> CashuTaking {
        let context = context
        return CashuTaking(
            terms: {
                guard let wallet = try? cashu.wallet(), let key = try? key(),
                    let mints = try? wallet.store.mints().map(\.url)
                else { return nil }
                return try? CashuTerms.signed(
                    mints: Array(mints.prefix(CashuTerms.maxMints)),
                    lockKey: wallet.lockPublicKey, lockedOnly: cashu.requireLock, by: key)
            },
            take: { token in
                switch context.take(cashuToken: token, via: Self.name) {
                case .success(let payment):
                    return .cashuTaken(
                        CashuTaken(amount: payment.amount, unit: payment.unit, mint: payment.mint))
                case .failure(let error):
                    return .refused(code: error.code, reason: "\(error)")
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
