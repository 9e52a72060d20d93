import Cashu
import CashuTestSupport
import Codecs
import Secp256k1
import Testing

@Suite struct OfflineAcceptanceTests {
    let mint: TestMint
    let payee: PrivateKey

    init() throws {
        mint = try TestMint()
        payee = try PrivateKey(bytes: [UInt8](repeating: 0x42, count: 32))
    }

    private func acceptance(
        _ policy: OfflineAcceptance.LockPolicy = .acceptUnlocked, now: UInt64 = 1_000
    ) -> OfflineAcceptance {
        OfflineAcceptance(
            keysets: [mint.keyset], payeeKey: payee.publicKey, lockPolicy: policy, now: now)
    }

    private func refusal(
        _ token: Token, _ policy: OfflineAcceptance.LockPolicy = .acceptUnlocked,
        now: UInt64 = 1_000
    ) -> CashuError? {
        do {
            _ = try acceptance(policy, now: now).check(token)
            return nil
        } catch { return error }
    }

    @Test func acceptsAWellSignedToken() throws {
        let accepted = try acceptance().check(try mint.token([1, 2, 16]))
        #expect(accepted.amount == 19)
        #expect(accepted.lockedProofs == 0 && accepted.lockedUntil == nil)
        #expect(accepted.keysetIDs == [mint.keyset.id, mint.keyset.id, mint.keyset.id])
    }

    @Test func readsTheShortKeysetID() throws {
        let proof = try mint.proof(amount: 4, secret: "short")
        let short = Proof(
            amount: 4, keysetID: Array(mint.keyset.id.prefix(8)), secret: proof.secret,
            signature: proof.signature, dleq: proof.dleq)
        let token = Token(mint: mint.url, unit: "sat", proofs: [short])
        #expect(
            try acceptance().check(try Token.decode(token.encoded())).keysetIDs == [mint.keyset.id])
    }

    @Test func refusesWhatOfflineChecksCanCatch() throws {
        let good = try mint.proof(amount: 8, secret: "a")
        // Another amount than the mint signed: the DLEQ fails under that amount's key.
        let inflated = Proof(
            amount: 16, keysetID: good.keysetID, secret: good.secret, signature: good.signature,
            dleq: good.dleq)
        #expect(
            refusal(Token(mint: mint.url, unit: "sat", proofs: [inflated]))?.kind == .badSignature)
        // Another secret under the same signature.
        let swapped = Proof(
            amount: 8, keysetID: good.keysetID, secret: "b", signature: good.signature,
            dleq: good.dleq)
        #expect(
            refusal(Token(mint: mint.url, unit: "sat", proofs: [swapped]))?.kind == .badSignature)
        // No DLEQ, or one without r.
        let bare = Proof(amount: 8, keysetID: good.keysetID, secret: "a", signature: good.signature)
        #expect(refusal(Token(mint: mint.url, unit: "sat", proofs: [bare]))?.kind == .missingField)
        // The same proof twice.
        #expect(
            refusal(Token(mint: mint.url, unit: "sat", proofs: [good, good]))?.kind
                == .duplicateSecret)
        // A keyset the payee does not hold, or another unit.
        let stranger = try TestMint(seed: 2)
        #expect(refusal(try stranger.token([1]))?.kind == .unknownKeyset)
        #expect(refusal(Token(mint: mint.url, unit: "usd", proofs: [good]))?.kind == .malformed)
        // An amount the keyset has no key for.
        let odd = Proof(
            amount: 3, keysetID: good.keysetID, secret: "a", signature: good.signature,
            dleq: good.dleq)
        #expect(refusal(Token(mint: mint.url, unit: "sat", proofs: [odd]))?.kind == .unknownKeyset)
    }

    /// Every bit flip of a token's CBOR is refused by the reader or by the offline check, or
    /// changes only what no one relies on (the memo, the mint URL's text, which the wallet
    /// compares with the mint it holds keysets for, and CBOR framing that reads the same).
    @Test func everyBitFlipIsCaughtOrHarmless() throws {
        let token = try mint.token([2, 8], memo: "m")
        let bytes = try Base64URL.decode(token.encoded().dropFirst(6)[...])
        var slipped: [Int] = []
        for bit in 0..<(bytes.count * 8) {
            var flipped = bytes
            flipped[bit / 8] ^= 1 << (bit % 8)
            guard let read = try? Token.decode("cashuB" + Base64URL.encode(flipped)),
                (try? acceptance().check(read)) != nil
            else { continue }
            let sameProofs = read.proofs == token.proofs && read.unit == token.unit
            if !sameProofs { slipped.append(bit) }
        }
        #expect(slipped.isEmpty, "bit flips accepted with other proofs: \(slipped)")
    }

    @Test func locksArePolicedOffline() throws {
        let lockedSecret = SpendingCondition(
            kind: "P2PK", nonce: "1", data: hex(payee.publicKey.compressed),
            tags: [["locktime", "5000"]]
        ).secret
        let locked = try mint.proof(amount: 4, secret: lockedSecret)
        let plain = try mint.proof(amount: 2, secret: "plain")
        let token = Token(mint: mint.url, unit: "sat", proofs: [locked, plain])
        let accepted = try acceptance().check(token)
        #expect(accepted.lockedProofs == 1 && accepted.lockedUntil == 5000)
        #expect(refusal(token, .requireLockToPayee)?.kind == .locked)
        #expect(
            try acceptance(.requireLockToPayee).check(
                Token(mint: mint.url, unit: "sat", proofs: [locked])
            ).amount == 4)
        // After the locktime anyone may spend it: refused.
        #expect(
            refusal(Token(mint: mint.url, unit: "sat", proofs: [locked]), now: 5000)?.kind
                == .locked)
        let other = try PrivateKey(bytes: [UInt8](repeating: 0x43, count: 32))
        let toOther = try mint.proof(
            amount: 4,
            secret: SpendingCondition(
                kind: "P2PK", nonce: "2", data: hex(other.publicKey.compressed), tags: []
            ).secret)
        #expect(refusal(Token(mint: mint.url, unit: "sat", proofs: [toOther]))?.kind == .locked)
        // A lock that ends within the margin protects nothing: the payer's refund key could
        // take it back before the swap. Taken as a plain proof, not as a locked one.
        let ending = try mint.proof(
            amount: 8,
            secret: SpendingCondition(
                kind: "P2PK", nonce: "4", data: hex(payee.publicKey.compressed),
                tags: [["locktime", "1600"]]
            ).secret)
        let soon = Token(mint: mint.url, unit: "sat", proofs: [ending])
        let why = refusal(soon, .requireLockToPayee)
        #expect(why?.kind == .locked)
        #expect(
            why?.description.contains("could take it back") == true, "\(why.map { "\($0)" } ?? "")")
        #expect(try acceptance().check(soon).lockedUntil == 1600)
        let htlc = try mint.proof(
            amount: 4,
            secret: SpendingCondition(kind: "HTLC", nonce: "3", data: "00", tags: []).secret)
        #expect(refusal(Token(mint: mint.url, unit: "sat", proofs: [htlc]))?.kind == .locked)
    }

    /// Secrets a mint refuses, or that a store or another parser could read otherwise.
    @Test(arguments: [
        "", "a\u{0}b", "tab\there", " [\"P2PK\",{}]", String(repeating: "x", count: 513),
    ])
    func secretsThatCannotBeReliedOnAreRefused(secret: String) throws {
        let token = Token(
            mint: mint.url, unit: "sat", proofs: [try mint.proof(amount: 2, secret: secret)])
        #expect(refusal(token)?.field.hasSuffix("secret") == true)
    }

    @Test func aSigAllLockIsNotTaken() throws {
        let secret = SpendingCondition(
            kind: "P2PK", nonce: "1", data: hex(payee.publicKey.compressed),
            tags: [["sigflag", "SIG_ALL"]]
        ).secret
        let token = Token(
            mint: mint.url, unit: "sat", proofs: [try mint.proof(amount: 4, secret: secret)])
        #expect(refusal(token)?.kind == .locked)
    }

    @Test func withoutDLEQATokenIsTakenOnlyWhenSwappedAtOnce() throws {
        let proof = try mint.proof(amount: 8, secret: "bare")
        let bare = Token(
            mint: mint.url, unit: "sat",
            proofs: [
                Proof(
                    amount: 8, keysetID: proof.keysetID, secret: "bare", signature: proof.signature)
            ])
        #expect(refusal(bare)?.kind == .missingField)
        let online = OfflineAcceptance(
            keysets: [mint.keyset], payeeKey: nil, lockPolicy: .acceptUnlocked, now: 1,
            requireDLEQ: false)
        #expect(try online.check(bare).amount == 8)
        // A DLEQ proof that is there is still checked.
        let raised = Token(
            mint: mint.url, unit: "sat",
            proofs: [
                Proof(
                    amount: 16, keysetID: proof.keysetID, secret: "bare",
                    signature: proof.signature, dleq: proof.dleq)
            ])
        #expect(throws: CashuError.self) { try online.check(raised) }
    }

    @Test func anExpiredKeysetIsRefused() throws {
        let keys = mint.keyset.keys
        let expiring = try Keyset(
            id: Keyset.versionTwoID(keys, unit: "sat", inputFeePPK: 0, finalExpiry: 2_000),
            unit: "sat", keys: keys,
            finalExpiry: 2_000)
        let proof = try mint.proof(amount: 1, secret: "e")
        let token = Token(
            mint: mint.url, unit: "sat",
            proofs: [
                Proof(
                    amount: 1, keysetID: expiring.id, secret: "e", signature: proof.signature,
                    dleq: proof.dleq)
            ])
        let check = OfflineAcceptance(
            keysets: [expiring], payeeKey: nil, lockPolicy: .acceptUnlocked, now: 1_999)
        #expect(try check.check(token).amount == 1)
        let late = OfflineAcceptance(
            keysets: [expiring], payeeKey: nil, lockPolicy: .acceptUnlocked, now: 2_000)
        #expect(throws: CashuError.self) { try late.check(token) }
    }
}
