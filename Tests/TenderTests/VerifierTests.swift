import Secp256k1
import TenderTestSupport
import Testing

@testable import Tender

@Suite struct VerifierTests {
    let world = World()

    @Test func acceptsANoteAndAChainOfTransfers() throws {
        let (note, transfer, bundle) = world.alicePaysBob()
        let verified = try world.verifier.verify(bundle, now: world.now)
        let coins = world.outputs(of: transfer)
        #expect(verified.leaves.map(\.id) == coins)
        #expect(verified.leaves.map(\.amount) == [60, 40])
        #expect(verified.leaves.map(\.owner) == [world.bob, world.alice])
        #expect(verified.leaves.allSatisfy { $0.depth == 1 && $0.issuer == world.issuer })
        #expect(verified.spentBy[note.coinID(in: world.domain)] == 0)

        // Bob pays Carol from the received coin: two hops.
        let onward = world.transfer([coins[0]], [(world.carol, 60)], by: world.bobKey)
        var longer = bundle
        longer.transfers.append(onward)
        let second = try world.verifier.verify(longer, now: world.now)
        #expect(second.leaves.map(\.owner) == [world.alice, world.carol])
        #expect(second.coins[world.outputs(of: onward)[0]]?.depth == 2)
        // The ancestor proof of Carol's coin is the whole chain; of Alice's change, one hop.
        #expect(second.proof(of: world.outputs(of: onward)[0]) == longer)
        #expect(second.proof(of: coins[1]) == bundle)
    }

    @Test func rejectsAForgedIssuerSignature() {
        let note = Note(
            serial: .zero, issuer: world.issuer, asset: world.asset, amount: 100,
            owner: world.alice,
            expiry: world.expiry)
        // Alice signs a note claiming to come from the issuer.
        let forged = SignedNote(
            note: note,
            signature: try! world.aliceKey.sign(digest: note.digest(in: world.domain).bytes))
        #expect(
            rejection {
                _ = try world.verifier.verify(ProofBundle(notes: [forged]), now: world.now)
            } == "bad-note-signature")
    }

    @Test func rejectsATamperedAmountAndASwappedSignature() {
        let (note, transfer, _) = world.alicePaysBob()
        let inflated = SignedTransfer(
            transfer: Transfer(
                inputs: transfer.transfer.inputs,
                outputs: [
                    Output(owner: world.bob, amount: 100), Output(owner: world.alice, amount: 0),
                ]),
            signature: transfer.signature)
        #expect(
            rejection {
                _ = try world.verifier.verify(
                    ProofBundle(notes: [note], transfers: [inflated]), now: world.now)
            } == "bad-transfer-signature")
        // Bob signs Alice's coin away: the signature is valid, the signer is not the owner.
        let theft = world.transfer(
            [note.coinID(in: world.domain)], [(world.bob, 100)], by: world.bobKey)
        #expect(
            rejection {
                _ = try world.verifier.verify(
                    ProofBundle(notes: [note], transfers: [theft]), now: world.now)
            } == "bad-transfer-signature")
    }

    @Test func rejectsBrokenConservationZeroAndEmpty() {
        let note = world.note(100)
        let coin = note.coinID(in: world.domain)
        let cases: [(SignedTransfer, String)] = [
            (world.transfer([coin], [(world.bob, 101)], by: world.aliceKey), "conservation-broken"),
            (world.transfer([coin], [(world.bob, 99)], by: world.aliceKey), "conservation-broken"),
            (
                world.transfer([coin], [(world.bob, 100), (world.alice, 0)], by: world.aliceKey),
                "zero-amount"
            ),
            (world.transfer([coin], [], by: world.aliceKey), "empty-transfer"),
            (world.transfer([], [(world.bob, 1)], by: world.aliceKey), "empty-transfer"),
            (
                world.transfer([coin, coin], [(world.bob, 200)], by: world.aliceKey),
                "duplicate-input"
            ),
            (world.transfer([.zero], [(world.bob, 1)], by: world.aliceKey), "unknown-input"),
            (
                world.transfer(
                    [coin], [(world.bob, Amount.max), (world.alice, Amount.max)], by: world.aliceKey
                ),
                "amount-overflow"
            ),
        ]
        for (transfer, expected) in cases {
            #expect(
                rejection {
                    _ = try world.verifier.verify(
                        ProofBundle(notes: [note], transfers: [transfer]), now: world.now)
                } == expected, "expected \(expected)")
        }
    }

    @Test func rejectsMixedIssuersAndExpiredCoins() throws {
        let other = key(0x02)
        let foreign = try SignedNote(
            signing: Note(
                serial: .zero, issuer: Address(publicKey: other.publicKey), asset: world.asset,
                amount: 5,
                owner: world.alice, expiry: world.expiry), with: other, in: world.domain)
        let ours = world.note(5)
        let mixed = world.transfer(
            [ours.coinID(in: world.domain), foreign.coinID(in: world.domain)], [(world.bob, 10)],
            by: world.aliceKey)
        #expect(
            rejection {
                _ = try world.verifier.verify(
                    ProofBundle(notes: [ours, foreign], transfers: [mixed]), now: world.now)
            } == "mixed-inputs")

        let expiring = world.note(5, expiry: world.now)
        #expect(
            rejection {
                _ = try world.verifier.verify(ProofBundle(notes: [expiring]), now: world.now)
            } == "expired")
        #expect(throws: Never.self) {
            try world.verifier.verify(ProofBundle(notes: [expiring]), now: world.now - 1)
        }
    }

    @Test func enforcesTheHopCap() throws {
        var bundle = ProofBundle(notes: [world.note(10)])
        var coin = bundle.notes[0].coinID(in: world.domain)
        var holder = world.aliceKey
        let keys = [world.bobKey, world.carolKey]
        for hop in 0..<9 {
            let next = keys[hop % 2]
            let transfer = world.transfer(
                [coin], [(Address(publicKey: next.publicKey), 10)], by: holder)
            bundle.transfers.append(transfer)
            coin = world.outputs(of: transfer)[0]
            holder = next
            if hop < 8 {
                #expect(
                    try world.verifier.verify(bundle, now: world.now).coins[coin]?.depth == hop + 1)
            }
        }
        #expect(
            rejection { _ = try world.verifier.verify(bundle, now: world.now) }
                == "hop-cap-exceeded")
        let strict = Verifier(domain: world.domain, limits: VerificationLimits(maxHops: 2))
        bundle.transfers.removeLast(6)
        #expect(rejection { _ = try strict.verify(bundle, now: world.now) } == "hop-cap-exceeded")
    }

    @Test func signaturesAreBoundToChainAndVault() {
        let (_, _, bundle) = world.alicePaysBob()
        for domain in [
            Domain(chainID: 1, vault: world.domain.vault),
            Domain(chainID: world.domain.chainID, vault: .zero),
        ] {
            #expect(
                rejection { _ = try Verifier(domain: domain).verify(bundle, now: world.now) }
                    == "bad-note-signature")
        }
    }

    @Test func aSecondSpendInsideABundleIsEvidence() throws {
        let note = world.note(100)
        let coin = note.coinID(in: world.domain)
        let toBob = world.transfer([coin], [(world.bob, 100)], by: world.aliceKey)
        let toCarol = world.transfer([coin], [(world.carol, 100)], by: world.aliceKey)
        do {
            _ = try world.verifier.verify(
                ProofBundle(notes: [note], transfers: [toBob, toCarol]), now: world.now)
            Issue.record("accepted a double spend")
        } catch {
            guard case .doubleSpend(let evidence, let issuer) = error.kind, issuer == world.issuer
            else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(evidence.coin == coin)
            #expect(evidence.spender == world.alice)
            #expect(Set([evidence.first, evidence.second]) == Set([toBob, toCarol]))
            try evidence.verify(in: world.domain)
        }
    }

    @Test func aSpendConflictingWithTheSeenSetIsEvidence() throws {
        let note = world.note(100)
        let coin = note.coinID(in: world.domain)
        let toBob = world.transfer([coin], [(world.bob, 100)], by: world.aliceKey)
        let toCarol = world.transfer([coin], [(world.carol, 100)], by: world.aliceKey)
        let bundle = ProofBundle(notes: [note], transfers: [toCarol])
        // The same transfer again is not a conflict.
        #expect(throws: Never.self) {
            try world.verifier.verify(bundle, now: world.now, seenSpends: [coin: toCarol])
        }
        #expect(
            rejection {
                _ = try world.verifier.verify(bundle, now: world.now, seenSpends: [coin: toBob])
            } == "double-spend")
    }

    @Test func evidenceNeedsTwoDifferentTransfersByOneSigner() throws {
        let note = world.note(100)
        let coin = note.coinID(in: world.domain)
        let toBob = world.transfer([coin], [(world.bob, 100)], by: world.aliceKey)
        let byBob = world.transfer([coin], [(world.carol, 100)], by: world.bobKey)
        #expect(
            rejection { _ = try DoubleSpendEvidence(coin: coin, toBob, toBob, in: world.domain) }
                == "invalid-evidence")
        #expect(
            rejection { _ = try DoubleSpendEvidence(coin: coin, toBob, byBob, in: world.domain) }
                == "invalid-evidence")
        #expect(
            rejection { _ = try DoubleSpendEvidence(coin: .zero, toBob, byBob, in: world.domain) }
                == "invalid-evidence")
    }

    @Test func proofSizeIsCapped() {
        let limits = VerificationLimits(maxNotes: 2)
        let notes = (1...3).map { world.note(1, serial: UInt8($0)) }
        #expect(
            rejection {
                _ = try Verifier(domain: world.domain, limits: limits).verify(
                    ProofBundle(notes: notes), now: world.now)
            } == "proof-too-large")
        let duplicate = ProofBundle(notes: [notes[0], notes[0]])
        #expect(
            rejection { _ = try world.verifier.verify(duplicate, now: world.now) }
                == "duplicate-coin")
    }
}
