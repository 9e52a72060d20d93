import Cashu
import CashuTestSupport
import Secp256k1
import Testing

/// Tokens and keys made by nutshell, the reference Cashu implementation (`NutshellRecording`):
/// Tender derives the same keyset ids, reads its tokens and checks its DLEQ proofs offline.
@Suite struct NutshellInteropTests {
    let keysets: [Keyset]
    let payee: PrivateKey
    /// Before the locked token's locktime (it was made on 2026-12-06 with a day's lock).
    let now: UInt64 = 1_796_600_000

    init() throws {
        keysets = try Keyset.parse(mintKeys: Array(NutshellRecording.keys.utf8)).keysets
        payee = try PrivateKey(bytes: [UInt8](repeating: 0x42, count: 32))
    }

    private func check(
        _ text: String, _ policy: OfflineAcceptance.LockPolicy = .acceptUnlocked, now: UInt64? = nil
    )
        throws -> OfflineAcceptance.Accepted
    {
        try OfflineAcceptance(
            keysets: keysets, payeeKey: payee.publicKey, lockPolicy: policy, now: now ?? self.now
        )
        .check(Token.decode(text))
    }

    @Test func derivesTheMintsKeysetIDs() {
        #expect(
            keysets.map(\.idHex).sorted() == [
                "01859a534f3cdccc7c58a5ac9b023d35630bca430c1573ce263e0034ce24ea5506",
                "01ea23f7e83077c625a588cf7251f45cdba4453c4f70cbc1fd23ed3fd9209f5dc3",
            ])
        #expect(Set(keysets.map(\.unit)) == ["sat", "usd"])
    }

    @Test func acceptsItsTokensOffline() throws {
        #expect(try check(NutshellRecording.satToken).amount == 21)
        #expect(try check(NutshellRecording.legacyToken).amount == 13)
        let usd = try Token.decode(NutshellRecording.usdToken)
        #expect(usd.unit == "usd")
        #expect(try check(NutshellRecording.usdToken).amount == 250)
    }

    @Test func writesItsTokensBackAsTheSameProofs() throws {
        for text in [
            NutshellRecording.satToken, NutshellRecording.legacyToken,
            NutshellRecording.lockedToken,
        ] {
            let token = try Token.decode(text)
            #expect(try Token.decode(token.encoded()) == token)
        }
    }

    @Test func takesALockToThisPayeeUntilItsLocktime() throws {
        let accepted = try check(NutshellRecording.lockedToken, .requireLockToPayee)
        #expect(accepted.amount == 8 && accepted.lockedProofs == accepted.keysetIDs.count)
        let until = try #require(accepted.lockedUntil)
        #expect(until > now)
        // Once the lock has ended anyone holding the token can spend it.
        #expect(throws: CashuError.self) { try check(NutshellRecording.lockedToken, now: until) }
        // Another payee's wallet refuses it.
        let other = try PrivateKey(bytes: [UInt8](repeating: 0x43, count: 32))
        #expect(throws: CashuError.self) {
            try OfflineAcceptance(
                keysets: keysets, payeeKey: other.publicKey, lockPolicy: .acceptUnlocked, now: now
            )
            .check(Token.decode(NutshellRecording.lockedToken))
        }
        #expect(throws: CashuError.self) {
            try check(NutshellRecording.satToken, .requireLockToPayee)
        }
    }

    @Test func refusesATokenWithoutDLEQ() {
        #expect {
            try check(NutshellRecording.tokenWithoutDLEQ)
        } throws: { ($0 as? CashuError)?.kind == .missingField }
    }

    /// A forged proof: its signature moved to another amount, or its DLEQ tampered.
    @Test func refusesForgeriesOfItsProofs() throws {
        let token = try Token.decode(NutshellRecording.satToken)
        let proof = token.proofs[0]
        let raised = Proof(
            amount: proof.amount * 2, keysetID: proof.keysetID, secret: proof.secret,
            signature: proof.signature,
            dleq: proof.dleq)
        let dleq = try #require(proof.dleq)
        var s = dleq.s
        s[31] ^= 1
        let tampered = Proof(
            amount: proof.amount, keysetID: proof.keysetID, secret: proof.secret,
            signature: proof.signature,
            dleq: try DLEQProof(e: dleq.e, s: s, r: dleq.r))
        for forged in [raised, tampered] {
            let text = Token(mint: token.mint, unit: token.unit, proofs: [forged]).encoded()
            #expect {
                try check(text)
            } throws: { ($0 as? CashuError)?.kind == .badSignature }
        }
    }
}
