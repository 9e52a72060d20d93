import DevTools
import NodeKit
import Secp256k1
import Tender
import TenderTestSupport
import Testing

/// The development issuer: what it issues is a payment the recipient's checks accept, coin for
/// coin; what it cannot issue is refused by name before anything is signed.
@Suite struct IssuerTests {
    let issuer = Issuer(key: key(0x11), domain: NodeDefaults.domain)
    let owner = Address(publicKey: key(0x22).publicKey)
    let now: UInt64 = 1_800_000_000

    @Test func issuedNotesAreAPaymentTheRecipientAccepts() throws {
        var generator = SeededGenerator(seed: 7)
        let (payment, envelope) = try issuer.issue(
            to: owner, amount: 250, count: 3, asset: .zero, expiry: now + 86_400,
            using: &generator)
        let checked = try Verifier(domain: NodeDefaults.domain).check(
            payment, payee: owner, policy: .trusted([issuer.address]), now: now)
        #expect(checked.credited.count == 3)
        #expect(checked.credited.allSatisfy { $0.amount == 250 && $0.owner == owner })
        #expect(checked.payer == issuer.address)
        #expect(payment.amount == 750)
        let decoded = try Envelope.decode(envelope)
        #expect(decoded.domain == NodeDefaults.domain)
        guard case .payment(let carried) = decoded.message else {
            Issue.record("the envelope carries a \(decoded.message.kind)")
            return
        }
        #expect(carried == payment)
    }

    @Test func whatCannotBeIssuedIsRefusedByName() {
        var generator = SeededGenerator(seed: 8)
        let cases: [(Address, Amount, Int, String)] = [
            (.zero, 1, 1, "zero address"),
            (owner, 1, 0, "count of notes must be between 1"),
            (
                owner, 1, VerificationLimits.standard.maxNotes + 1,
                "count of notes must be between 1"
            ),
            (owner, 0, 1, "amount must be positive"),
            (owner, Amount.max, 2, "exceeds 2^128 - 1"),
        ]
        for (to, amount, count, named) in cases {
            #expect {
                _ = try issuer.issue(
                    to: to, amount: amount, count: count, asset: .zero, expiry: now + 60,
                    using: &generator)
            } throws: { "\($0)".contains(named) }
        }
    }
}
