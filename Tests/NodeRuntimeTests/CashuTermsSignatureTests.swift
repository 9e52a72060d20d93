import PaymentSession
import Secp256k1
import Tender
import Testing

@testable import NodeRuntime

/// The Cashu terms a payee answers with name their signer, for one session key: the payee's
/// wallet address, so a payer that names the payee knows whose lock key it is, and terms
/// relayed from another session name someone else (Docs/PROTOCOL.md §10.3).
@Suite struct CashuTermsSignatureTests {
    let walletKey = try! PrivateKey(bytes: Array(repeating: 0x07, count: 32))
    let lockKey = try! PrivateKey(bytes: Array(repeating: 0x09, count: 32)).publicKey
    let session = [UInt8](repeating: 0x5E, count: 32)

    @Test func theSignerIsTheWalletForItsSessionAndAnyChangeNamesAnother() throws {
        let terms = try CashuTerms.signed(
            mints: ["https://mint.example"], units: ["sat"], lockKey: lockKey, lockedOnly: true,
            sessionKey: session, by: walletKey)
        let wallet = Address(publicKey: walletKey.publicKey)
        #expect(terms.signer(sessionKey: session) == wallet)
        #expect(terms.lockKey == lockKey.compressed)
        // Relayed into another session (a device in the middle): another signer.
        #expect(terms.signer(sessionKey: [UInt8](repeating: 0x5F, count: 32)) != wallet)
        var changed = terms
        changed.mints = ["https://evil.example"]
        #expect(changed.signer(sessionKey: session) != wallet)
        changed = terms
        changed.units = ["usd"]
        #expect(changed.signer(sessionKey: session) != wallet)
        changed = terms
        changed.lockKey = walletKey.publicKey.compressed
        #expect(changed.signer(sessionKey: session) != wallet)
        changed = terms
        changed.lockedOnly = false
        #expect(changed.signer(sessionKey: session) != wallet)
        // Every single bit of the signature flipped: never the wallet.
        for bit in 0..<(terms.signature.count * 8) {
            changed = terms
            changed.signature[bit / 8] ^= 1 << (bit % 8)
            #expect(changed.signer(sessionKey: session) != wallet)
        }
    }
}
