import Cashu
import CashuMint
import CashuStore
import CashuWallet
import Foundation
import Secp256k1
import Testing

/// A wallet in a fresh store, with the rig's mint added.
struct LightningWallet {
    let rig: CashuMintRig
    let wallet: CashuWallet

    init() async throws {
        rig = try #require(CashuMintRig.current)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cashu-lightning-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try CashuDatabase(path: folder.appendingPathComponent("cashu.sqlite").path)
        wallet = CashuWallet(
            store: store, lockKey: try PrivateKey(bytes: [UInt8](repeating: 0x42, count: 32)))
        _ = try await wallet.addMint(rig.mint, now: Self.now)
    }

    @Sendable static func now() -> UInt64 { UInt64(Date().timeIntervalSince1970) }

    var spendable: UInt64 {
        get throws { try wallet.store.balances(now: nil).reduce(0) { $0 + $1.spendable } }
    }

    var inFlight: UInt64 {
        get throws { try wallet.store.balances(now: nil).reduce(0) { $0 + $1.swapping } }
    }

    /// `amount` minted through the wallet, as `tender cashu mint` does.
    func minted(_ amount: UInt64) async throws -> MintQuoteRecord {
        let record = try await wallet.requestMint(
            amount, unit: "sat", client: rig.mint, now: Self.now)
        // Generous: a busy machine may be slow; the FakeWallet pays in a fraction of a second.
        let outcome = try await wallet.finishMint(
            record, client: rig.mint, now: Self.now, until: .now + .seconds(600),
            pollInterval: .milliseconds(50))
        guard case .issued(let issued) = outcome else {
            throw MintTestFailure("quote \(record.quote) not issued: \(outcome)")
        }
        return issued
    }

    /// A quote asked and paid (the mint says so), nothing minted yet.
    func paidQuote(_ amount: UInt64) async throws -> MintQuoteRecord {
        let record = try await wallet.requestMint(
            amount, unit: "sat", client: rig.mint, now: Self.now)
        let state = try await rig.mint.mintQuoteState(record.quote)
        _ = try await rig.paid(state)
        return record
    }

    /// A melt recorded as `melt` records it (all the wallet's proofs as inputs), not sent.
    func recordedMelt(sats: UInt64) async throws -> (MeltQuote, MeltRecord) {
        let (_, quote) = try await meltQuote(sats: sats)
        let inputs = try wallet.store.proofs(mint: rig.mint.url, states: ["unspent"])
        let total = inputs.reduce(0) { $0 + $1.amount }
        let blanks = rig.outputs(
            Array(repeating: 1, count: CashuWallet.blankOutputCount(for: total - quote.amount)),
            keyset: try await rig.satKeyset())
        let id = try wallet.store.beginMelt(
            mint: rig.mint.url, quote: quote.quote, unit: "sat", amount: quote.amount,
            feeReserve: quote.feeReserve, request: quote.request ?? "", inputs: inputs,
            blanks: blanks, now: Self.now())
        return (quote, try wallet.store.melt(id))
    }

    /// A melt quote for another node's invoice of `sats` (the FakeWallet pays it).
    func meltQuote(sats: UInt64) async throws -> (String, MeltQuote) {
        let invoice = try rig.externalInvoice(sats: sats)
        return (
            invoice, try await wallet.meltQuote(invoice: invoice, unit: "sat", client: rig.mint)
        )
    }

    /// The melt `tender cashu melt` makes.
    func pay(_ quote: MeltQuote, _ invoice: String) async throws -> MeltOutcome {
        try await wallet.melt(quote, invoice: invoice, unit: "sat", client: rig.mint, now: Self.now)
    }

    func states(_ proofs: [Proof]) async throws -> [ProofState.State] {
        try await rig.mint.checkState(try proofs.map { try $0.y() }).map(\.state)
    }
}

/// `tender cashu mint` and `tender cashu melt` against the real mint, and what a crash or a
/// lost answer leaves for `settle` to finish: nothing lost, nothing counted twice.
@Suite(.cashuMint) struct CashuLightningTests {
    @Test func mintsFromAPaidInvoice() async throws {
        let lightning = try await LightningWallet()
        let record = try await lightning.minted(100)
        #expect(record.state == .issued && record.amount == 100)
        #expect(try lightning.spendable == 100)
        #expect(try lightning.wallet.store.openMintQuotes().isEmpty)
        let own = try lightning.wallet.store.proofs(
            mint: lightning.rig.mint.url, states: ["unspent"])
        #expect(own.map(\.amount).sorted() == [4, 32, 64])
        #expect(try await lightning.states(own).allSatisfy { $0 == .unspent })
        #expect(try await lightning.rig.mint.mintQuoteState(record.quote).state == .issued)
    }

    @Test func aMintWhoseAnswerWasLostIsFinishedBySettle() async throws {
        let lightning = try await LightningWallet()
        let record = try await lightning.paidQuote(45)
        let outputs = lightning.rig.outputs(
            UInt64(45).powersOfTwo, keyset: try await lightning.rig.satKeyset())
        try lightning.wallet.store.beginIssue(
            record.id, outputs: outputs, now: LightningWallet.now())
        // Minted at the mint; the answer is "lost".
        _ = try await lightning.rig.mint.mint(quote: record.quote, outputs: outputs.map(\.message))
        #expect(try lightning.spendable == 0)
        let report = await lightning.wallet.settle(
            with: lightning.rig.mint, now: LightningWallet.now)
        #expect(report.failure == nil && report.recovered == 1)
        #expect(try lightning.spendable == 45)
        let own = try lightning.wallet.store.proofs(
            mint: lightning.rig.mint.url, states: ["unspent"])
        #expect(Set(own.map(\.secret)) == Set(outputs.map(\.secret)))
        #expect(try lightning.wallet.store.openMintQuotes().isEmpty)
        // A second sync finds nothing left, and counts nothing twice.
        _ = await lightning.wallet.settle(with: lightning.rig.mint, now: LightningWallet.now)
        #expect(try lightning.spendable == 45)
    }

    @Test func aMintRecordedButNeverSentIsSentBySettle() async throws {
        let lightning = try await LightningWallet()
        let record = try await lightning.paidQuote(19)
        let outputs = lightning.rig.outputs(
            UInt64(19).powersOfTwo, keyset: try await lightning.rig.satKeyset())
        try lightning.wallet.store.beginIssue(
            record.id, outputs: outputs, now: LightningWallet.now())
        let report = await lightning.wallet.settle(
            with: lightning.rig.mint, now: LightningWallet.now)
        #expect(report.failure == nil && report.recovered == 1)
        #expect(try lightning.spendable == 19)
        #expect(try await lightning.rig.mint.mintQuoteState(record.quote).state == .issued)
    }

    @Test func aQuoteLeftUnpaidIsMintedBySettleOncePaid() async throws {
        let lightning = try await LightningWallet()
        let record = try await lightning.paidQuote(8)  // as `--wait 0` leaves it
        #expect(try lightning.wallet.store.openMintQuotes().map(\.state) == [.unpaid])
        let report = await lightning.wallet.settle(
            with: lightning.rig.mint, now: LightningWallet.now)
        #expect(report.failure == nil && report.recovered == 1)
        #expect(try lightning.spendable == 8)
        let held = try lightning.wallet.store.mintQuote(
            mint: lightning.rig.mint.url, quote: record.quote)
        #expect(held?.state == .issued)
    }

    @Test func meltPaysAnInvoiceAndKeepsTheChange() async throws {
        let lightning = try await LightningWallet()
        _ = try await lightning.minted(200)
        let (invoice, quote) = try await lightning.meltQuote(sats: 100)
        #expect(quote.amount == 100 && quote.feeReserve > 0)
        let outcome = try await lightning.pay(quote, invoice)
        #expect(outcome.melt.state == .paid && outcome.melt.preimage != nil)
        // The largest proof (128) pays 100 and the reserve; the FakeWallet's payment costs 1
        // sat, and the rest of the 128 comes back as change.
        #expect(outcome.fee == 1 && outcome.spent == 128 && outcome.change == 27)
        #expect(try lightning.spendable == 99)
        #expect(try lightning.inFlight == 0)
        #expect(try await lightning.states(outcome.melt.inputs).allSatisfy { $0 == .spent })
        let change = try lightning.wallet.store.proofs(
            mint: lightning.rig.mint.url, states: ["unspent"])
        #expect(try await lightning.states(change).allSatisfy { $0 == .unspent })
    }

    @Test func aMeltWhoseAnswerWasLostIsFinishedBySettleWithItsChange() async throws {
        let lightning = try await LightningWallet()
        _ = try await lightning.minted(128)
        let (_, melt) = try await lightning.recordedMelt(sats: 100)
        #expect(try lightning.inFlight == 128 && lightning.spendable == 0)
        _ = try await lightning.rig.mint.melt(
            quote: melt.quote, inputs: melt.inputs, outputs: melt.blanks.map(\.message))
        let report = await lightning.wallet.settle(
            with: lightning.rig.mint, now: LightningWallet.now)
        #expect(report.failure == nil && report.recovered == 1)
        #expect(try lightning.wallet.store.melt(melt.id).state == .paid)
        #expect(try lightning.spendable == 27 && lightning.inFlight == 0)
        #expect(try lightning.wallet.store.pendingMelts().isEmpty)
    }

    @Test func aMeltRecordedButNeverSentGivesItsProofsBack() async throws {
        let lightning = try await LightningWallet()
        _ = try await lightning.minted(128)
        let (_, melt) = try await lightning.recordedMelt(sats: 100)
        let report = await lightning.wallet.settle(
            with: lightning.rig.mint, now: LightningWallet.now)
        #expect(report.failure == nil && report.recovered == 1)
        #expect(try lightning.wallet.store.melt(melt.id).state == .failed)
        #expect(try lightning.spendable == 128 && lightning.inFlight == 0)
        #expect(try await lightning.states(melt.inputs).allSatisfy { $0 == .unspent })
    }

    @Test func aMeltOfMoreThanIsHeldIsRefusedWithNothingRecorded() async throws {
        let lightning = try await LightningWallet()
        _ = try await lightning.minted(64)
        let (invoice, quote) = try await lightning.meltQuote(sats: 100)
        do {
            _ = try await lightning.wallet.melt(
                quote, invoice: invoice, unit: "sat", client: lightning.rig.mint,
                now: LightningWallet.now)
            Issue.record("100 sat paid with 64")
        } catch {
            guard case .refusedEcash(let code, _) = error.kind else { throw error }
            #expect(code == "insufficient-funds")
        }
        #expect(try lightning.spendable == 64 && lightning.wallet.store.pendingMelts().isEmpty)
    }
}

/// A mint whose Lightning payments fail (the FakeWallet told so): the melt is refused and the
/// proofs are spendable again.
@Suite(
    .cashuMint(environment: [
        "FAKEWALLET_PAY_INVOICE_STATE=FAILED", "FAKEWALLET_PAYMENT_STATE=FAILED",
    ])
)
struct CashuMeltRefusedTests {
    @Test func aMeltRefusedLeavesTheProofsSpendable() async throws {
        let lightning = try await LightningWallet()
        _ = try await lightning.minted(128)
        let (invoice, quote) = try await lightning.meltQuote(sats: 100)
        do {
            _ = try await lightning.wallet.melt(
                quote, invoice: invoice, unit: "sat", client: lightning.rig.mint,
                now: LightningWallet.now)
            Issue.record("a failed payment was taken as paid")
        } catch {
            guard case .refusedEcash(let code, _) = error.kind else { throw error }
            #expect(code == "melt-refused")
        }
        #expect(try lightning.spendable == 128 && lightning.inFlight == 0)
        #expect(try lightning.wallet.store.pendingMelts().isEmpty)
        let own = try lightning.wallet.store.proofs(
            mint: lightning.rig.mint.url, states: ["unspent"])
        #expect(try await lightning.states(own).allSatisfy { $0 == .unspent })
    }
}

/// A mint whose Lightning payments stay in flight when made (the FakeWallet told so) and are
/// settled when asked again: the melt is left pending, then finished by the next sync.
@Suite(.cashuMint(environment: ["FAKEWALLET_PAY_INVOICE_STATE=PENDING"]))
struct CashuMeltPendingTests {
    @Test func aMeltInFlightIsFinishedBySettle() async throws {
        let lightning = try await LightningWallet()
        _ = try await lightning.minted(128)
        let (invoice, quote) = try await lightning.meltQuote(sats: 100)
        let outcome = try await lightning.pay(quote, invoice)
        #expect(outcome.melt.state == .melting)
        #expect(try lightning.inFlight == 128 && lightning.spendable == 0)
        let report = await lightning.wallet.settle(
            with: lightning.rig.mint, now: LightningWallet.now)
        #expect(report.failure == nil && report.recovered == 1)
        let melt = try lightning.wallet.store.melt(outcome.melt.id)
        #expect(melt.state == .paid)
        let kept = try lightning.spendable
        // The change: what the 128 held beyond 100 and the fee the payment cost.
        #expect(kept + quote.feeReserve >= 28 && kept <= 28)
        #expect(try lightning.inFlight == 0)
    }
}

@Suite struct MeltArithmeticTests {
    /// NUT-08: `max(ceil(log2(overpaid)), 1)` blank outputs hold any change up to `overpaid`
    /// as powers of two; none when nothing can come back.
    @Test func blankOutputsHoldAnyChangeUpToTheOverpaid() {
        #expect(CashuWallet.blankOutputCount(for: 0) == 0)
        #expect(CashuWallet.blankOutputCount(for: 1) == 1)
        #expect(CashuWallet.blankOutputCount(for: 2) == 1)
        #expect(CashuWallet.blankOutputCount(for: 3) == 2)
        #expect(CashuWallet.blankOutputCount(for: 28) == 5)
        #expect(CashuWallet.blankOutputCount(for: 1000) == 10)
        #expect(CashuWallet.blankOutputCount(for: .max) == 64)
        // Whatever change the payment leaves (0 to all of the overpaid), it fits the outputs.
        let short = (UInt64(1)...512).filter { overpaid in
            (0...overpaid).contains { change in
                // The mint splits change into powers of two: one output a set bit.
                change.nonzeroBitCount > CashuWallet.blankOutputCount(for: overpaid)
            }
        }
        #expect(short.isEmpty)
    }
}
