import Secp256k1
import TenderTestSupport
import Testing

@testable import Tender

@Suite struct PaymentTests {
    let world = World()

    func spendable(_ notes: [SignedNote]) -> [SpendableCoin] {
        let verified = try! world.verifier.verify(ProofBundle(notes: notes), now: world.now)
        return verified.leaves.map { SpendableCoin(coin: $0, proof: verified.proof(of: $0.id)!) }
    }

    @Test func plansWithTheSmallestCoveringCoinAndChange() throws {
        let coins = spendable([
            world.note(50, serial: 1), world.note(80, serial: 2), world.note(200, serial: 3),
        ])
        let builder = PaymentBuilder(domain: world.domain)
        let plan = try builder.plan(
            requestID: .zero, payee: world.bob, amount: 70, asset: world.asset, from: coins,
            key: world.aliceKey, now: world.now)
        #expect(plan.spent == [coins[1].coin.id])
        #expect(plan.transfers.count == 1)
        #expect(
            plan.transfers[0].transfer.outputs == [
                Output(owner: world.bob, amount: 70), Output(owner: world.alice, amount: 10),
            ])
        #expect(plan.change.map(\.coin.amount) == [10])

        // The payee's check accepts exactly what the payer planned.
        let checked = try world.verifier.check(
            plan.payment, payee: world.bob, policy: world.policy, now: world.now)
        #expect(checked.credited.map(\.id) == plan.credited)
        #expect(checked.digest == plan.digest)
        // And the change proof verifies on its own.
        let change = try world.verifier.verify(plan.change[0].proof, now: world.now)
        #expect(
            change.leaves.contains { $0.id == plan.change[0].coin.id && $0.owner == world.alice })
    }

    @Test func combinesLargestCoinsWhenNoneCoversAlone() throws {
        let coins = spendable([
            world.note(50, serial: 1), world.note(80, serial: 2), world.note(30, serial: 3),
        ])
        let plan = try PaymentBuilder(domain: world.domain).plan(
            requestID: .zero, payee: world.bob, amount: 120, asset: world.asset, from: coins,
            key: world.aliceKey, now: world.now)
        #expect(Set(plan.spent) == Set([coins[0].coin.id, coins[1].coin.id]))
        #expect(plan.change.map(\.coin.amount) == [10])
        #expect(
            rejection {
                _ = try PaymentBuilder(domain: world.domain).plan(
                    requestID: .zero, payee: world.bob, amount: 161, asset: world.asset,
                    from: coins,
                    key: world.aliceKey, now: world.now)
            } == "insufficient-funds")
    }

    /// Coins whose sum passes the largest amount cannot be one transfer's inputs: selection
    /// takes a smaller coin instead, or reports too little, and never overflows.
    @Test func neverCombinesCoinsPastTheLargestAmount() throws {
        let huge = Amount.max - 1
        let coins = spendable([world.note(huge, serial: 1), world.note(huge, serial: 2)])
        #expect(
            rejection {
                _ = try PaymentBuilder(domain: world.domain).plan(
                    requestID: .zero, payee: world.bob, amount: .max, asset: world.asset,
                    from: coins, key: world.aliceKey, now: world.now)
            } == "insufficient-funds")
        let withSmall = spendable([
            world.note(huge, serial: 1), world.note(huge, serial: 2), world.note(1, serial: 3),
        ])
        let plan = try PaymentBuilder(domain: world.domain).plan(
            requestID: .zero, payee: world.bob, amount: .max, asset: world.asset,
            from: withSmall, key: world.aliceKey, now: world.now)
        // One of the two huge coins (which one depends on ids) and the small one.
        #expect(plan.spent.count == 2 && plan.spent.contains(withSmall[2].coin.id))
    }

    @Test func skipsCoinsAboutToExpire() throws {
        let coins = spendable([world.note(100, serial: 1, expiry: world.now + 10)])
        #expect(
            rejection {
                _ = try PaymentBuilder(
                    domain: world.domain, limits: VerificationLimits(minimumCoinLifetime: 60)
                ).plan(
                    requestID: .zero, payee: world.bob, amount: 1, asset: world.asset, from: coins,
                    key: world.aliceKey, now: world.now)
            } == "insufficient-funds")
    }

    @Test func payeeChecksAmountPayeeAssetPolicyAndHeldCoins() throws {
        let (_, transfer, bundle) = world.alicePaysBob()
        func payment(amount: Amount = 60, payee: Address? = nil, asset: Address = .zero) -> Payment
        {
            world.payment(
                bundle, to: payee ?? world.bob, amount: amount, asset: asset,
                coins: world.credits(to: world.bob, in: bundle), signer: world.aliceKey)
        }
        #expect(throws: Never.self) {
            try world.verifier.check(
                payment(), payee: world.bob, policy: world.policy, now: world.now)
        }
        #expect(
            rejection {
                _ = try world.verifier.check(
                    payment(amount: 61), payee: world.bob, policy: world.policy, now: world.now)
            } == "payment-mismatch")
        #expect(
            rejection {
                _ = try world.verifier.check(
                    payment(payee: world.carol), payee: world.bob, policy: world.policy,
                    now: world.now)
            } == "payment-mismatch")
        #expect(
            rejection {
                _ = try world.verifier.check(
                    payment(asset: world.bob), payee: world.bob, policy: world.policy,
                    now: world.now)
            } == "payment-mismatch")
        #expect(
            rejection {
                _ = try world.verifier.check(
                    payment(), payee: world.bob, policy: .trusted([]), now: world.now)
            } == "untrusted-issuer")
        let bobCoin = world.outputs(of: transfer)[0]
        #expect(
            rejection {
                _ = try world.verifier.check(
                    payment(), payee: world.bob, policy: world.policy, now: world.now,
                    held: [bobCoin])
            } == "already-held")

        let capped = IssuerPolicy.exposureCap(remaining: [
            IssuerAsset(issuer: world.issuer, asset: .zero): 59
        ])
        #expect(
            rejection {
                _ = try world.verifier.check(
                    payment(), payee: world.bob, policy: capped, now: world.now)
            } == "exposure-exceeded")
        let enough = IssuerPolicy.exposureCap(remaining: [
            IssuerAsset(issuer: world.issuer, asset: .zero): 60
        ])
        #expect(throws: Never.self) {
            try world.verifier.check(payment(), payee: world.bob, policy: enough, now: world.now)
        }
    }

    @Test func requestTermsAreEnforced() throws {
        let (_, _, bundle) = world.alicePaysBob()
        let payment = world.payment(bundle, to: world.bob, amount: 60)
        let request = try PaymentRequest(
            id: .zero, payee: world.bob, amount: 60, asset: .zero, expiry: world.now + 60,
            domain: world.domain)
        #expect(throws: Never.self) {
            try world.verifier.check(
                payment, payee: world.bob, request: request, policy: world.policy, now: world.now)
        }
        #expect(
            rejection {
                _ = try world.verifier.check(
                    payment, payee: world.bob, request: request, policy: world.policy,
                    now: world.now + 60)
            } == "request-expired")
        let other = try PaymentRequest(
            id: .zero, payee: world.bob, amount: 61, asset: .zero, expiry: world.now + 60,
            domain: world.domain)
        #expect(
            rejection {
                _ = try world.verifier.check(
                    payment, payee: world.bob, request: other, policy: world.policy, now: world.now)
            } == "payment-mismatch")
    }

    @Test func receiptsVerifyAgainstThePayeeOnly() throws {
        let receipt = Receipt(requestID: .zero, paymentDigest: .zero, time: world.now)
        let signed = try SignedReceipt(signing: receipt, with: world.bobKey, in: world.domain)
        try signed.verify(payee: world.bob, in: world.domain)
        #expect(
            rejection { try signed.verify(payee: world.carol, in: world.domain) }
                == "bad-receipt-signature")
    }

    @Test func payerStateMachine() throws {
        typealias State = OutgoingPaymentState
        #expect(try State.prepared.applying(.handOver) == .pending)
        #expect(try State.pending.applying(.linkLost) == .inDoubt)
        #expect(try State.inDoubt.applying(.receipt) == .spent)
        #expect(try State.spent.applying(.receipt) == .spent)
        #expect(try State.prepared.applying(.cancel) == .cancelled)
        for state in [State.pending, .inDoubt, .spent, .cancelled] {
            #expect(rejection { _ = try state.applying(.cancel) } == "invalid-transition")
        }
        #expect(rejection { _ = try State.cancelled.applying(.receipt) } == "invalid-transition")
        #expect(rejection { _ = try State.spent.applying(.linkLost) } == "invalid-transition")
    }

    @Test func payeeIsIdempotentPerRequest() throws {
        let digest = try Bytes32([UInt8](repeating: 7, count: 32))
        #expect(try decide(requestID: .zero, paymentDigest: digest, acceptedDigest: nil) == .accept)
        #expect(
            try decide(requestID: .zero, paymentDigest: digest, acceptedDigest: digest)
                == .repeatReceipt)
        #expect(
            rejection {
                _ = try decide(requestID: .zero, paymentDigest: digest, acceptedDigest: .zero)
            } == "request-already-paid")
    }
}

/// A signer may sign the same note or transfer twice (another ECDSA nonce): proofs holding
/// both forms merge into one item, so a payee's two coins from one transfer can be paid on
/// together instead of looking like a double spend.
@Suite struct ProofMergingTests {
    let world = World()

    @Test func theSameContentSignedTwiceMergesOnce() throws {
        let (note, transfer, bundle) = world.alicePaysBob()
        let entropy = [UInt8](repeating: 7, count: 32)
        let noteAgain = SignedNote(
            note.message,
            signature: try world.issuerKey.sign(
                digest: note.message.digest(in: world.domain).bytes, extraEntropy: entropy))
        let transferAgain = SignedTransfer(
            transfer.message,
            signature: try world.aliceKey.sign(
                digest: transfer.message.digest(in: world.domain).bytes, extraEntropy: entropy))
        #expect(noteAgain != note && transferAgain != transfer)
        #expect(noteAgain.signer(in: world.domain) == world.issuer)
        #expect(transferAgain.signer(in: world.domain) == world.alice)

        let other = ProofBundle(notes: [noteAgain], transfers: [transferAgain])
        let merged = ProofBundle.merging([bundle, other])
        #expect(merged == bundle)
        _ = try world.verifier.verify(merged, now: world.now)
    }
}

/// The open-mode policy on its own: trusted issuers pass, others need a lock that outlasts
/// the coin and collateral left for the sum of their coins in one payment.
@Suite struct TrustedOrCollateralizedPolicyTests {
    let world = World()

    func coin(_ issuer: Address, _ amount: Amount, expiry: UInt64 = 1_000) -> Coin {
        Coin(
            id: try! Bytes32([UInt8](repeating: UInt8(truncatingIfNeeded: amount), count: 32)),
            owner: world.bob, issuer: issuer, asset: .zero, amount: amount, expiry: expiry,
            depth: 0, origin: .note(0))
    }

    @Test func capsSumPerIssuerAndAssetAndNameWhatFailed() throws {
        let other = world.carol
        let policy = IssuerPolicy.trustedOrCollateralized(
            trusted: [world.issuer], remaining: [IssuerAsset(issuer: other, asset: .zero): 100],
            lockedUntil: [other: 1_000])
        #expect(
            rejection { try policy.check([coin(world.issuer, 10_000), coin(other, 100)]) } == nil)
        #expect(
            rejection { try policy.check([coin(other, 60), coin(other, 41)]) }
                == "exposure-exceeded")
        #expect(
            rejection { try policy.check([coin(other, 1, expiry: 1_001)]) } == "collateral-unlocked"
        )
        #expect(rejection { try policy.check([coin(world.alice, 1)]) } == "untrusted-issuer")
    }

    @Test func remainingIsCollateralLessHeldNeverBelowZero() {
        let key = IssuerAsset(issuer: world.issuer, asset: .zero)
        let other = IssuerAsset(issuer: world.carol, asset: .zero)
        let snapshot = CollateralSnapshot(
            block: 1, takenAt: 1, collateral: [key: 100, other: 5], lockedUntil: [:])
        #expect(snapshot.remaining(after: [key: 30, other: 9]) == [key: 70, other: 0])
        #expect(snapshot.remaining(after: [:]) == [key: 100, other: 5])
    }
}
