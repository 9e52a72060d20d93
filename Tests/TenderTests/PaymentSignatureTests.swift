import Codecs
import Secp256k1
import TenderTestSupport
import Testing

@testable import Tender

/// The payer signs the payment's terms (PROTOCOL.md §5): a change to any of them after signing
/// is refused, as is a payment signed by anyone but the creator of the coins it pays.
@Suite struct PaymentSignatureTests {
    let world = World()

    func check(_ payment: Payment, now: UInt64? = nil) throws(ProtocolError) -> CheckedPayment {
        try world.verifier.check(
            payment, payee: world.bob, policy: world.policy, now: now ?? world.now)
    }

    /// The genuine payment's terms with one field replaced, keeping the payer's signature.
    func altered(_ payment: Payment, _ change: (inout Fields) -> Void) -> Payment {
        var fields = Fields(payment.terms)
        change(&fields)
        return Payment(Signed(fields.terms, signature: payment.signature), bundle: payment.bundle)
    }

    struct Fields {
        var requestID: Bytes32, payee: Address, asset: Address, amount: Amount, memo: String
        var coins: [CoinID]
        init(_ terms: PaymentTerms) {
            (requestID, payee, asset, amount, memo, coins) = (
                terms.requestID, terms.payee, terms.asset, terms.amount, terms.memo, terms.coins
            )
        }
        var terms: PaymentTerms {
            PaymentTerms(
                requestID: requestID, payee: payee, amount: amount, asset: asset, memo: memo,
                coins: coins)
        }
    }

    @Test func theDigestIsTheEIP712DigestOfTheTerms() throws {
        let (_, _, bundle) = world.alicePaysBob()
        let payment = world.payment(bundle, to: world.bob, amount: 60, memo: "tea")
        #expect(try EIP712.encodeType("Payment", types: TenderTypes.all) == TenderTypes.payment)
        let generic = try EIP712.digest(
            primaryType: "Payment", message: payment.terms.typedValue,
            domain: world.domain.typedValue, types: TenderTypes.all)
        #expect(generic == payment.digest(in: world.domain).bytes)
        let checked = try check(payment)
        #expect(checked.digest == payment.digest(in: world.domain))
        #expect(checked.payer == world.alice)
    }

    @Test func everySignedFieldIsCovered() throws {
        let (_, transfer, bundle) = world.alicePaysBob()
        let genuine = world.payment(
            bundle, to: world.bob, amount: 60, requestID: .zero, memo: "two teas")
        _ = try check(genuine)
        let flipped = try Bytes32([UInt8](repeating: 0, count: 31) + [1])
        let changes: [(String, (inout Fields) -> Void)] = [
            ("requestId", { $0.requestID = flipped }),
            ("memo", { $0.memo = "two teaz" }),
            ("memo emptied", { $0.memo = "" }),
            ("amount", { $0.amount = 59 }),
            ("asset", { $0.asset = world.issuer }),
        ]
        for (name, change) in changes {
            #expect(
                rejection { _ = try check(altered(genuine, change)) } == "bad-payment-signature",
                "\(name)")
        }
        // Fields the payee checks before the signature fail there, by name.
        #expect(
            rejection { _ = try check(altered(genuine) { $0.payee = world.carol }) }
                == "payment-mismatch")
        let change = world.outputs(of: transfer)[1]  // Alice's change: not Bob's, a leaf
        #expect(
            rejection { _ = try check(altered(genuine) { $0.coins.append(change) }) }
                == "bad-payment-signature")
        #expect(
            rejection { _ = try check(altered(genuine) { $0.coins = [] }) } == "payment-mismatch")
    }

    @Test func onlyTheCreatorOfThePaidCoinsMaySign() throws {
        let (_, _, bundle) = world.alicePaysBob()
        for signer in [world.bobKey, world.carolKey, world.issuerKey] {
            let payment = world.payment(bundle, to: world.bob, amount: 60, signer: signer)
            #expect(rejection { _ = try check(payment) } == "bad-payment-signature")
        }
        // An issuance is signed by its issuer, and by nobody else.
        let notes = ProofBundle(notes: [world.note(10, to: world.bob)])
        _ = try check(world.payment(notes, to: world.bob, amount: 10))
        #expect(
            rejection {
                _ = try check(
                    world.payment(notes, to: world.bob, amount: 10, signer: world.aliceKey))
            } == "bad-payment-signature")
    }

    @Test func coinsFromTwoPayersCannotShareOnePayment() throws {
        let aliceNote = world.note(10, to: world.alice, serial: 1)
        let carolNote = world.note(20, to: world.carol, serial: 2)
        let fromAlice = world.transfer(
            [aliceNote.coinID(in: world.domain)], [(world.bob, 10)], by: world.aliceKey)
        let fromCarol = world.transfer(
            [carolNote.coinID(in: world.domain)], [(world.bob, 20)], by: world.carolKey)
        let bundle = ProofBundle(notes: [aliceNote, carolNote], transfers: [fromAlice, fromCarol])
        for signer in [world.aliceKey, world.carolKey] {
            #expect(
                rejection {
                    _ = try check(world.payment(bundle, to: world.bob, amount: 30, signer: signer))
                } == "bad-payment-signature")
        }
    }

    @Test func everyItemOfTheBundleMustLeadToAPaidCoin() throws {
        let (note, transfer, _) = world.alicePaysBob()
        let stray = world.note(5, to: world.carol, serial: 9)
        let withNote = ProofBundle(notes: [note, stray], transfers: [transfer])
        #expect(
            rejection { _ = try check(world.payment(withNote, to: world.bob, amount: 60)) }
                == "unrelated-proof-item")
        // Alice's change spent onward to Carol in the same bundle: no paid coin needs it.
        let onward = world.transfer(
            [world.outputs(of: transfer)[1]], [(world.carol, 40)], by: world.aliceKey)
        let withTransfer = ProofBundle(notes: [note], transfers: [transfer, onward])
        #expect(
            rejection {
                _ = try check(
                    world.payment(
                        withTransfer, to: world.bob, amount: 60,
                        coins: [world.outputs(of: transfer)[0]]))
            } == "unrelated-proof-item")
    }

    @Test func paidCoinsMustLiveTheMinimumLifetime() throws {
        let lifetime = VerificationLimits.standard.minimumCoinLifetime
        let note = world.note(10, to: world.bob, expiry: world.now + lifetime)
        let payment = world.payment(ProofBundle(notes: [note]), to: world.bob, amount: 10)
        #expect(rejection { _ = try check(payment) } == "expires-too-soon")
        #expect(throws: Never.self) { try check(payment, now: world.now - 1) }
        // The payer's selection uses the same limit: it would not pick that coin.
        let verified = try world.verifier.verify(ProofBundle(notes: [note]), now: world.now)
        let coin = SpendableCoin(coin: verified.leaves[0], proof: ProofBundle(notes: [note]))
        #expect(
            PaymentBuilder(domain: world.domain).eligible(
                [coin], owner: world.bob, asset: .zero, now: world.now
            ).isEmpty)
        #expect(
            PaymentBuilder(domain: world.domain).eligible(
                [coin], owner: world.bob, asset: .zero, now: world.now - 1
            ).count == 1)
    }
}

/// One value, one encoding: what a relay could change without changing what is signed is
/// refused on decoding.
@Suite struct CanonicalWireTests {
    let world = World()

    @Test func signaturesOnTheWireHaveVOf27Or28() throws {
        let (_, _, bundle) = world.alicePaysBob()
        let bytes = Envelope(
            domain: world.domain,
            message: .payment(world.payment(bundle, to: world.bob, amount: 60))
        ).encoded()
        _ = try Envelope.decode(bytes)
        // The last byte of the payment's signature is its v (field 7 is the last of the body).
        var lowered = bytes
        #expect(lowered[lowered.count - 1] == 27 || lowered[lowered.count - 1] == 28)
        lowered[lowered.count - 1] -= 27
        #expect(rejection { _ = try Envelope.decode(lowered) } == "malformed")
    }

    @Test func evidenceIsInDigestOrder() throws {
        let note = world.note(100)
        let coin = note.coinID(in: world.domain)
        let first = world.transfer([coin], [(world.bob, 100)], by: world.aliceKey)
        let second = world.transfer([coin], [(world.carol, 100)], by: world.aliceKey)
        let evidence = try DoubleSpendEvidence(coin: coin, first, second, in: world.domain)
        let bytes = Envelope(domain: world.domain, message: .evidence(evidence)).encoded()
        _ = try Envelope.decode(bytes)
        let swapped = CBOR.tagged(
            55799,
            .fields([
                0: .text("evidence"), 1: .unsigned(Envelope.version),
                2: .unsigned(world.domain.chainID), 3: .bytes(world.domain.vault.bytes),
                4: .fields([
                    0: .bytes(coin.bytes), 1: evidence.second.cbor, 2: evidence.first.cbor,
                ]),
            ])
        ).encoded()
        #expect(rejection { _ = try Envelope.decode(swapped) } == "malformed")
    }
}
