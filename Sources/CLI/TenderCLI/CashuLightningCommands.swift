import ArgumentParser
import Cashu
import CashuMint
import CashuStore
import CashuWallet
import Foundation
import NodeKit
import PaymentCodes
import QR

/// `tender cashu mint AMOUNT`: the default subcommand of `tender cashu mint`, so a first
/// argument that is no subcommand (`add`, `list`) is an amount.
struct CashuMintInvoiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invoice",
        abstract: "Mint ecash for a Lightning invoice (NUT-04): `tender cashu mint AMOUNT`.",
        discussion: """
            Asks the mint for an invoice of AMOUNT, prints it (and its QR code on a \
            terminal), waits up to --wait seconds until it is paid, then mints. The outputs \
            are recorded before the mint is asked, so a crash or a lost answer loses nothing: \
            `tender cashu mint --quote ID` or the next `tender cashu sync` finishes it. With \
            --wait 0 it prints the invoice and returns. Exit 0 when minted (or, with --wait \
            0, when the invoice is shown), 75 when still unpaid after --wait, 65 when the \
            quote expired unpaid (it is dropped) or was issued to someone else.
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The amount in the unit (2.50 for usd, 100 for sat).") var amount: String?
    @Option(help: "The unit.") var unit = "sat"
    @Option(help: "The mint's URL (the wallet's only mint when left out).") var mint: String?
    @Option(help: "Seconds to wait for the invoice to be paid (0: print it and return).")
    var wait: UInt64 = 300
    @Option(help: "Finish a quote asked earlier instead of asking a new one.") var quote: String?

    func validate() throws {
        guard (amount == nil) != (quote == nil) else {
            throw ValidationError("give an AMOUNT, or --quote ID to finish a quote asked earlier")
        }
    }

    func run() async throws {
        try await guarded {
            let wallet = try global.host.openCashu(signing: false)
            let deadline = ContinuousClock.now + .seconds(wait)
            let (record, outcome) = try await asked(wallet) { record, client in
                if record.state == .unpaid {
                    show(record)
                    // Waiting records nothing: the lock (which a sync needs) is taken after.
                    _ = try await wallet.awaitPayment(of: record, client: client, until: deadline)
                }
                let lock = try global.host.directory.waitForCashuLock()
                defer { withExtendedLifetime(lock) {} }
                // As it stands now: a sync may have minted or dropped it meanwhile.
                guard
                    let current = try cashu({
                        try wallet.store.mintQuote(mint: record.mint, quote: record.quote)
                    })
                else { return .expired(record) }
                return try await wallet.finishMint(
                    current, client: client, now: { global.clock.now() }, until: .now)
            }
            if output.json {
                var json = mintQuoteJSON(record)
                json["state"] = outcome.state
                try printJSON(json)
            } else {
                let amount = CashuUnit.text(UInt128(record.amount), unit: record.unit)
                switch outcome {
                case .issued:
                    print("Minted \(amount) at \(record.mint) (quote \(record.quote)).")
                case .unpaid:
                    print(
                        "Not paid yet: once it is, `tender cashu mint --quote \(record.quote) --mint \(record.mint)` or `tender cashu sync` mints \(amount)."
                    )
                case .expired:
                    break
                }
            }
            switch outcome {
            case .issued: return
            case .unpaid: if wait > 0 { throw ExitCode(Failure.busy) }
            case .expired:
                throw NodeError(
                    .refusedEcash(
                        code: "quote-expired",
                        reason:
                            "the invoice of quote \(record.quote) expired unpaid: the quote was dropped, ask a new one"
                    ))
            }
        }
    }

    /// A new quote (AMOUNT) or the one named (--quote), then `body` with the mint's client.
    private func asked(
        _ wallet: CashuWallet,
        _ body: (MintQuoteRecord, MintClient) async throws -> MintOutcome
    ) async throws -> (MintQuoteRecord, MintOutcome) {
        if let quote {
            let held = try cashu {
                try wallet.store.openMintQuotes().first {
                    $0.quote == quote && (mint == nil || $0.mint == Token.normalized(mint: mint!))
                }
            }
            guard let held else {
                throw NodeError(
                    .missing(
                        "no open mint quote \(terminalSafe(String(quote.prefix(64)))) in this wallet: minted already, dropped once expired, or never asked here"
                    ))
            }
            return try await withMint(held.mint) { client in
                (held, try await body(held, client))
            }
        }
        let unit = self.unit.lowercased()
        let value: UInt64
        do { value = try CashuUnit.baseUnits(amount ?? "", unit: unit) } catch {
            throw NodeError(.usage("amount: \(error.message)"))
        }
        let url = try chosenMint(mint, in: wallet)
        return try await withMint(url) { client in
            let record = try await wallet.requestMint(
                value, unit: unit, client: client, now: { global.clock.now() })
            return (record, try await body(record, client))
        }
    }

    /// The invoice to pay: on standard output (with its QR code on a terminal), or on
    /// standard error with --json (whose one object comes at the end).
    private func show(_ record: MintQuoteRecord) {
        let invoice = terminalSafe(record.request)
        let amount = CashuUnit.text(UInt128(record.amount), unit: record.unit)
        if output.json {
            FileHandle.standardError.write(Data("Pay this invoice: \(invoice)\n".utf8))
        } else {
            if isatty(STDOUT_FILENO) == 1,
                let matrix = try? QREncoder.encode(Array(record.request.uppercased().utf8))
            {
                print(matrix.terminalText(inverted: false))
            }
            print(invoice)
        }
        guard wait > 0 else { return }
        FileHandle.standardError.write(
            Data(
                "Waiting up to \(wait) s for the invoice of \(amount) to be paid (quote \(record.quote))…\n"
                    .utf8))
    }
}

struct CashuMeltCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "melt", abstract: "Pay a Lightning invoice with ecash (NUT-05).",
        discussion: """
            Asks the mint what paying INVOICE costs (its amount and a fee reserve), then pays \
            it with this wallet's proofs there; what the payment did not use comes back as \
            change. The melt is recorded before it is sent: if the answer is lost, or the \
            payment is still in flight, its proofs are held as melting and the next `tender \
            cashu sync` learns from the mint how it went. Exit 0 when paid, 75 when still in \
            flight, 65 when the mint refused it or the payment failed (the proofs are \
            spendable again), 69 when the mint cannot be reached.
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The BOLT11 invoice (lnbc…).") var invoice: String
    @Option(help: "The mint's URL (the wallet's only mint when left out).") var mint: String?
    @Option(help: "The unit of the ecash to pay with.") var unit = "sat"

    func run() async throws {
        try await guarded {
            var request = invoice.trimmingCharacters(in: .whitespacesAndNewlines)
            if request.lowercased().hasPrefix("lightning:") { request.removeFirst(10) }
            guard request.lowercased().hasPrefix("ln"), request.count < 8000 else {
                throw NodeError(.usage("'\(request.prefix(40))' is not a BOLT11 invoice (lnbc…)"))
            }
            // Read here first (bech32 checksum, fields): a damaged invoice is a usage error
            // named locally, not the mint's refusal.
            do { _ = try BOLT11.decode(request) } catch {
                throw NodeError(
                    .usage(
                        "'\(terminalSafe(String(request.prefix(40))))…' is not a BOLT11 invoice: \(error)"
                    ))
            }
            let wallet = try global.host.openCashu(signing: false)
            let lock = try global.host.directory.waitForCashuLock()
            defer { withExtendedLifetime(lock) {} }
            let unit = self.unit.lowercased()
            let url = try chosenMint(mint, in: wallet)
            let outcome = try await withMint(url) { client in
                let quote = try await wallet.meltQuote(invoice: request, unit: unit, client: client)
                let text = { (value: UInt64) in CashuUnit.text(UInt128(value), unit: unit) }
                FileHandle.standardError.write(
                    Data(
                        "Paying \(text(quote.amount)) (fee reserve \(text(quote.feeReserve))) at \(url)…\n"
                            .utf8))
                return try await wallet.melt(
                    quote, invoice: request, unit: unit, client: client,
                    now: { global.clock.now() })
            }
            let melt = outcome.melt
            let text = { (value: UInt64) in CashuUnit.text(UInt128(value), unit: unit) }
            if output.json {
                var json: [String: Any] = [
                    "mint": melt.mint, "quote": melt.quote, "unit": melt.unit,
                    "amount": Int(melt.amount), "feeReserve": Int(melt.feeReserve),
                    "state": melt.state == .melting ? "pending" : melt.state.rawValue,
                    "spent": Int(outcome.spent), "change": Int(outcome.change),
                    "fee": Int(outcome.fee),
                ]
                if let preimage = melt.preimage { json["preimage"] = preimage }
                try printJSON(json)
            } else {
                switch melt.state {
                case .paid:
                    print(
                        "Paid \(text(melt.amount)) (fee \(text(outcome.fee)), change \(text(outcome.change)) kept)."
                    )
                    if let preimage = melt.preimage { print("Preimage: \(terminalSafe(preimage))") }
                case .melting:
                    print(
                        "The payment is in flight: its proofs are held as melting until `tender cashu sync` learns how it went."
                    )
                case .failed:
                    break
                }
            }
            switch melt.state {
            case .paid: return
            case .melting: throw ExitCode(Failure.busy)
            case .failed:
                throw NodeError(
                    .refusedEcash(
                        code: "melt-unpaid",
                        reason: "mint \(melt.mint) did not pay the invoice (quote \(melt.quote))"),
                    note: "the proofs are spendable again")
            }
        }
    }
}

/// The mint given, or the wallet's only one.
private func chosenMint(_ given: String?, in wallet: CashuWallet) throws(NodeError) -> String {
    if let given { return try checkedMint(given) }
    let mints = try cashu { try wallet.store.mints() }
    guard mints.count == 1 else {
        throw NodeError(
            .usage(
                mints.isEmpty
                    ? "this wallet knows no mint: add one with `tender cashu mint add URL`"
                    : "--mint is needed: this wallet knows \(mints.count) mints"))
    }
    return mints[0].url
}

private func mintQuoteJSON(_ record: MintQuoteRecord) -> [String: Any] {
    var json: [String: Any] = [
        "mint": record.mint, "quote": record.quote, "unit": record.unit,
        "amount": Int(record.amount), "request": record.request,
    ]
    if let expiry = record.expiry { json["expiry"] = Int(expiry) }
    return json
}

extension MintOutcome {
    fileprivate var state: String {
        switch self {
        case .issued: "issued"
        case .unpaid: "unpaid"
        case .expired: "expired"
        }
    }
}
