import NodeKit
import Secp256k1
import Tender

/// A development issuer: signs notes for a recipient, packaged as a payment envelope the
/// recipient takes with `tender receive`. (A real issuer also locks collateral in the vault.)
public struct Issuer: Sendable {
    public let key: PrivateKey
    public let domain: Domain

    public init(key: PrivateKey, domain: Domain) {
        self.key = key
        self.domain = domain
    }

    public var address: Address { Address(publicKey: key.publicKey) }

    /// `count` notes of `amount` each to `owner`, expiring at `expiry`.
    public func issue(
        to owner: Address, amount: Amount, count: Int, asset: Address, expiry: UInt64,
        using generator: inout some RandomNumberGenerator
    ) throws(NodeError) -> (payment: Payment, envelope: [UInt8]) {
        guard owner != .zero else {
            throw NodeError(.usage("the recipient is the zero address, which belongs to no one"))
        }
        guard count >= 1, count <= VerificationLimits.standard.maxNotes else {
            throw NodeError(
                .usage(
                    "the count of notes must be between 1 and \(VerificationLimits.standard.maxNotes)"
                ))
        }
        guard amount > 0 else { throw NodeError(.usage("a note's amount must be positive")) }
        let (total, overflow) = amount.multipliedReportingOverflow(by: Amount(count))
        guard !overflow else { throw NodeError(.usage("amount × count exceeds 2^128 - 1")) }
        var notes: [SignedNote] = []
        for _ in 0..<count {
            let note = Note(
                serial: .random(using: &generator), issuer: address, asset: asset, amount: amount,
                owner: owner, expiry: expiry)
            do { notes.append(try SignedNote(signing: note, with: key, in: domain)) } catch {
                throw NodeError(.rejected(error))
            }
        }
        // The issuer signs the issuance as its payer: the memo naming it is covered too.
        let terms = PaymentTerms(
            requestID: .random(using: &generator), payee: owner, amount: total, asset: asset,
            memo: "issued by \(address)", coins: notes.map { $0.coinID(in: domain) })
        let payment: Payment
        do {
            payment = try Payment(
                signing: terms, bundle: ProofBundle(notes: notes), with: key, in: domain)
        } catch { throw NodeError(.rejected(error)) }
        return (payment, Envelope(domain: domain, message: .payment(payment)).encoded())
    }
}
