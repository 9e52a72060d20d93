import PaymentSession
import Secp256k1
import Tender
import Testing

@testable import NodeRuntime

/// The Cashu terms a payee's hello carries name their signer: the payee's wallet address, so
/// a payer that names the payee knows whose lock key it is (Docs/PROTOCOL.md §10.3).
@Suite struct CashuTermsSignatureTests {
    let walletKey = try! PrivateKey(bytes: Array(repeating: 0x07, count: 32))
    let lockKey = try! PrivateKey(bytes: Array(repeating: 0x09, count: 32)).publicKey

    @Test func theSignerIsTheWalletAndAnyChangeNamesAnother() throws {
        let terms = try CashuTerms.signed(
            mints: ["https://mint.example"], lockKey: lockKey, lockedOnly: true, by: walletKey)
        let wallet = Address(publicKey: walletKey.publicKey)
        #expect(terms.signer == wallet)
        #expect(terms.lockKey == lockKey.compressed)
        var changed = terms
        changed.mints = ["https://evil.example"]
        #expect(changed.signer != wallet)
        changed = terms
        changed.lockKey = walletKey.publicKey.compressed
        #expect(changed.signer != wallet)
        changed = terms
        changed.lockedOnly = false
        #expect(changed.signer != wallet)
        // Every single bit of the signature flipped: never the wallet.
        for bit in 0..<(terms.signature.count * 8) {
            changed = terms
            changed.signature[bit / 8] ^= 1 << (bit % 8)
            #expect(changed.signer != wallet)
        }
    }
}
