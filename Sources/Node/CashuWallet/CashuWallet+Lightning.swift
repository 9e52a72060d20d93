import Cashu
import CashuMint
import CashuStore
import NodeKit

/// How a mint quote stands after `finishMint`.
public enum MintOutcome: Sendable, Hashable {
    /// Minted: its amount is spendable now.
    case issued(MintQuoteRecord)
    /// Its invoice is not paid yet: finished later (`tender cashu mint --quote`, or a sync).
    case unpaid(MintQuoteRecord)
    /// Its invoice expired unpaid: the quote was dropped.
    case expired(MintQuoteRecord)
}

/// What a melt did: the record as it stands now and the change kept.
public struct MeltOutcome: Sendable, Hashable {
    public let melt: MeltRecord
    /// The change the mint gave back (NUT-08), spendable now.
    public let change: UInt64

    /// What the inputs were worth.
    public var spent: UInt64 { melt.inputs.reduce(0) { $0 + $1.amount } }

    /// What the payment cost beyond its amount (Lightning and input fees), once paid.
    public var fee: UInt64 {
        melt.state == .paid ? spent - min(spent, melt.amount + change) : 0
    }
}

/// Lightning in and out of the wallet (Docs/CASHU.md, "Lightning: mint and melt"): ecash minted
/// for a paid invoice (NUT-04), an invoice paid with ecash (NUT-05, change by NUT-08). Each
/// request that moves value is recorded before it leaves, so a crash or a lost answer is
/// finished from the mint's records at the next sync (`finishLightning`).
extension CashuWallet {
    /// Asks `client`'s mint for an invoice of `amount` in `unit`, recorded as an unpaid quote.
    public func requestMint(
        _ amount: UInt64, unit: String, client: MintClient, now: @Sendable () -> UInt64
    ) async throws(NodeError) -> MintQuoteRecord {
        do {
            guard amount > 0 else { throw NodeError(.usage("the amount must be more than 0")) }
            try activeKeyset(unit: unit, mint: client.url)
            let quote = try await client.mintQuote(amount: amount, unit: unit)
            return try store.saveMintQuote(
                mint: client.url, quote: quote.quote, unit: unit, amount: amount,
                request: quote.request, expiry: quote.expiry, now: now())
        } catch { throw Self.lightningFailure(error) }
    }

    /// Waits until `deadline` for the quote's invoice to be paid (asking the mint every
    /// `pollInterval`), then mints: the outputs are recorded before the request leaves. A quote
    /// whose outputs were recorded earlier (`issuing`) is finished from the mint's records.
    public func finishMint(
        _ record: MintQuoteRecord, client: MintClient, now: @Sendable () -> UInt64,
        until deadline: ContinuousClock.Instant, pollInterval: Duration = .milliseconds(500)
    ) async throws(NodeError) -> MintOutcome {
        do {
            switch record.state {
            case .issued: return .issued(record)
            case .failed: throw Self.issuedElsewhere(record)
            case .issuing: return .issued(try await resumeIssue(record, client: client, now: now))
            case .unpaid: break
            }
            let state = try await awaitPayment(
                of: record, client: client, until: deadline, pollInterval: pollInterval)
            switch state.state {
            case .unpaid:
                if let expiry = state.expiry ?? record.expiry, expiry <= now() {
                    try store.dropMintQuote(record.id)
                    return .expired(record)
                }
                return .unpaid(record)
            case .issued:
                // Nothing of this wallet's was sent for it: whoever else knew the quote id took it.
                try store.failIssue(record.id, now: now())
                throw Self.issuedElsewhere(record)
            case .paid:
                return .issued(try await issue(record, client: client, now: now))
            }
        } catch { throw Self.lightningFailure(error) }
    }

    /// Waits until `deadline` for the quote's invoice to be paid, asking the mint every
    /// `pollInterval`; records nothing, so it needs no lock. The quote as last read.
    public func awaitPayment(
        of record: MintQuoteRecord, client: MintClient, until deadline: ContinuousClock.Instant,
        pollInterval: Duration = .milliseconds(500)
    ) async throws(NodeError) -> MintQuote {
        do {
            var state = try await client.mintQuoteState(record.quote)
            while state.state == .unpaid, ContinuousClock.now < deadline {
                try await Task.sleep(
                    for: min(pollInterval, ContinuousClock.now.duration(to: deadline)))
                state = try await client.mintQuoteState(record.quote)
            }
            return state
        } catch { throw Self.lightningFailure(error) }
    }

    /// The quote is paid: outputs recorded, then minted.
    private func issue(
        _ record: MintQuoteRecord, client: MintClient, now: @Sendable () -> UInt64
    ) async throws -> MintQuoteRecord {
        let active = try activeKeyset(unit: record.unit, mint: record.mint).active
        var generator = SystemRandomNumberGenerator()
        let outputs = record.amount.powersOfTwo.map {
            PreparedOutput.random(amount: $0, keysetID: active.id, using: &generator)
        }
        try store.beginIssue(record.id, outputs: outputs, now: now())
        let signatures: [BlindSignature]
        do {
            signatures = try await client.mint(quote: record.quote, outputs: outputs.map(\.message))
        } catch {
            // Whatever the mint did, the outputs are recorded: restore finds what it signed.
            throw Self.lightningFailure(error).noting(
                "quote \(record.quote) at \(record.mint) is paid and its outputs are recorded: finishing it by its quote id, or the next sync, mints them"
            )
        }
        let proofs = try zip(outputs, signatures).map { try $0.proof(from: $1, keyset: active) }
        try store.completeIssue(record.id, proofs: proofs, now: now())
        return try reread(record)
    }

    /// A mint whose answer was lost, or never sent: what the mint signed on the recorded
    /// outputs is restored (NUT-09); when it signed nothing and the quote is still paid, the
    /// same outputs are sent again.
    private func resumeIssue(
        _ record: MintQuoteRecord, client: MintClient, now: @Sendable () -> UInt64
    ) async throws -> MintQuoteRecord {
        let keysets = try store.keysets(mint: record.mint)
        func restored() async throws -> Bool {
            let pairs = try await client.restore(record.outputs.map(\.message))
            guard !pairs.isEmpty else { return false }
            guard pairs.count == record.outputs.count else {
                throw NodeError(
                    .io(
                        "mint \(record.mint) restored \(pairs.count) of quote \(record.quote)'s \(record.outputs.count) outputs: left to the next sync"
                    ))
            }
            let proofs = try zip(record.outputs, pairs).map { output, pair in
                try output.proof(
                    from: pair.1, keyset: try Self.keyset(output.keysetID, in: keysets))
            }
            try store.completeIssue(record.id, proofs: proofs, now: now())
            return true
        }
        if try await restored() { return try reread(record) }
        switch try await client.mintQuoteState(record.quote).state {
        case .paid:
            let signatures = try await client.mint(
                quote: record.quote, outputs: record.outputs.map(\.message))
            let proofs = try zip(record.outputs, signatures).map { output, signature in
                try output.proof(
                    from: signature, keyset: try Self.keyset(output.keysetID, in: keysets))
            }
            try store.completeIssue(record.id, proofs: proofs, now: now())
            return try reread(record)
        case .issued:
            // Issued between the restore and the state read (another process), or elsewhere.
            if try await restored() { return try reread(record) }
            try store.failIssue(record.id, now: now())
            throw Self.issuedElsewhere(record)
        case .unpaid:
            throw NodeError(
                .unavailable(
                    "mint \(record.mint) says quote \(record.quote) is unpaid, though it said paid before: left to the next sync"
                ))
        }
    }

    private func reread(_ record: MintQuoteRecord) throws -> MintQuoteRecord {
        try store.mintQuote(mint: record.mint, quote: record.quote) ?? record
    }

    private static func issuedElsewhere(_ record: MintQuoteRecord) -> NodeError {
        NodeError(
            .refusedEcash(
                code: "quote-issued",
                reason:
                    "mint \(record.mint) issued quote \(record.quote) to outputs that are not this wallet's: whoever else knew the quote id took its ecash"
            ))
    }

    // MARK: Melt

    /// What paying `invoice` with ecash of `unit` costs (nothing is recorded).
    public func meltQuote(
        invoice: String, unit: String, client: MintClient
    ) async throws(NodeError) -> MeltQuote {
        do {
            try activeKeyset(unit: unit, mint: client.url)
            return try await client.meltQuote(invoice: invoice, unit: unit)
        } catch { throw Self.lightningFailure(error) }
    }

    /// Pays `quote`'s invoice with the wallet's own proofs, largest first, worth the amount,
    /// the fee reserve and the input fees; what the payment did not use (the reserve's rest and
    /// any overshoot of the proofs) comes back as change on blank outputs (NUT-08), so no split
    /// at the mint is needed first. Recorded before it is sent; a refusal gives the proofs back
    /// once the mint says they are unspent; no answer leaves it to the next sync.
    public func melt(
        _ quote: MeltQuote, invoice: String, unit: String, client: MintClient,
        now: @Sendable () -> UInt64
    ) async throws(NodeError) -> MeltOutcome {
        do {
            guard quote.state == .unpaid else {
                throw NodeError(
                    .refusedEcash(
                        code: "quote-not-unpaid",
                        reason: "melt quote \(quote.quote) is \(quote.state.rawValue) already"))
            }
            let (active, keysets) = try activeKeyset(unit: unit, mint: client.url)
            let (needed, overflow) = quote.amount.addingReportingOverflow(quote.feeReserve)
            guard !overflow, needed < UInt64.max / 2 else {
                throw NodeError(.usage("the invoice asks more than any Cashu wallet holds"))
            }
            let own = try ownProofs(unit: unit, mint: client.url, keysets: keysets)
            let chosen = Self.inputs(for: needed, from: own, keysets: keysets)
            let total = chosen.reduce(UInt64(0)) { $0 + $1.amount }
            let inputFee = Keyset.fee(for: chosen, in: keysets)
            guard total >= needed + inputFee else {
                throw try insufficient(
                    quote.amount, unit: unit, mint: client.url, fee: quote.feeReserve + inputFee)
            }
            var generator = SystemRandomNumberGenerator()
            let blanks = (0..<Self.blankOutputCount(for: total - quote.amount - inputFee)).map {
                _ in PreparedOutput.random(amount: 1, keysetID: active.id, using: &generator)
            }
            let id = try store.beginMelt(
                mint: client.url, quote: quote.quote, unit: unit, amount: quote.amount,
                feeReserve: quote.feeReserve, request: invoice, inputs: chosen, blanks: blanks,
                now: now())
            let result: MeltResult
            do {
                result = try await client.melt(
                    quote: quote.quote, inputs: chosen, outputs: blanks.map(\.message))
            } catch {
                try await refused(try store.melt(id), error: error, client: client, now: now)
                throw NodeError(
                    .unavailable(error.description),
                    note:
                        "the payment may still be made: its proofs are held as melting until a sync learns from the mint how it went"
                )
            }
            return try await conclude(store.melt(id), result: result, client: client, now: now)
        } catch { throw Self.lightningFailure(error) }
    }

    /// A melt the mint refused outright (a NUT-00 4xx): the inputs go back once the mint says
    /// they are unspent (those it says were spent are kept as refused). Any other error leaves
    /// the melt pending (returns).
    private func refused(
        _ melt: MeltRecord, error: MintError, client: MintClient, now: @Sendable () -> UInt64
    ) async throws {
        switch error.kind {
        case .refused(_?, _, let status) where (400..<500).contains(status) && status != 429:
            try await giveBack(melt, client: client, now: now)
            throw NodeError(
                .refusedEcash(code: "melt-refused", reason: error.description),
                note: "nothing was paid: the proofs are spendable again")
        case .invalidRequest:
            try store.failMelt(melt.id, now: now())  // never sent
            throw NodeError(.unavailable(error.description))
        default: return
        }
    }

    /// The melt did not pay: its inputs back to unspent after the mint's state check (NUT-07),
    /// or left pending while the mint holds them.
    private func giveBack(
        _ melt: MeltRecord, client: MintClient, now: @Sendable () -> UInt64
    ) async throws {
        let states = try await client.checkState(try melt.inputs.map { try $0.y() })
        guard !states.contains(where: { $0.state == .pending }) else {
            throw NodeError(
                .unavailable(
                    "melt \(melt.quote)'s proofs are pending at mint \(melt.mint): left to the next sync"
                ))
        }
        var refused: [[UInt8]: String] = [:]
        for state in states where state.state == .spent {
            refused[state.y] = "the mint says it was spent, and not by this wallet's melt"
        }
        try store.failMelt(melt.id, refused: refused, now: now())
    }

    /// Records what the mint said of a melt: paid (inputs spent, change unblinded and kept),
    /// pending (left), or unpaid (inputs back, after the state check).
    private func conclude(
        _ melt: MeltRecord, result: MeltResult, client: MintClient, now: @Sendable () -> UInt64
    ) async throws -> MeltOutcome {
        switch result.state {
        case .pending:
            return MeltOutcome(melt: melt, change: 0)
        case .unpaid:
            try await giveBack(melt, client: client, now: now)
            return MeltOutcome(melt: try store.melt(melt.id), change: 0)
        case .paid:
            let keysets = try store.keysets(mint: melt.mint)
            let change = try Self.unblind(result.change, blanks: melt.blanks, keysets: keysets)
            try store.completeMelt(melt.id, change: change, preimage: result.preimage, now: now())
            return MeltOutcome(
                melt: try store.melt(melt.id), change: change.reduce(0) { $0 + $1.amount })
        }
    }

    // MARK: Recovery

    /// Finishes at `client`'s mint what a crash or a lost answer cut short: mint quotes paid
    /// since (or whose outputs were recorded) are minted, expired unpaid ones dropped, melts
    /// in flight resolved from the quote's state (with their change). Returns how many it
    /// finished.
    func finishLightning(client: MintClient, now: @Sendable () -> UInt64) async throws -> Int {
        var finished = 0
        for record in try store.openMintQuotes() where record.mint == client.url {
            let outcome: MintOutcome
            do {
                outcome = try await finishMint(record, client: client, now: now, until: .now)
            } catch {
                guard error.isEcashRefusal else { throw error }
                continue  // recorded (failed): nothing left to finish
            }
            if case .unpaid = outcome { continue }
            finished += 1
        }
        for melt in try store.pendingMelts() where melt.mint == client.url {
            let result = try await client.meltState(
                melt.quote, blankOutputs: melt.blanks.map(\.message))
            if try await conclude(melt, result: result, client: client, now: now).melt.state
                != .melting
            {
                finished += 1
            }
        }
        return finished
    }

    // MARK: Pure parts

    /// Proofs for `amount` plus their own input fees, largest first (`proofs` sorted so).
    static func inputs(for amount: UInt64, from proofs: [Proof], keysets: [Keyset]) -> [Proof] {
        var chosen: [Proof] = []
        var total: UInt64 = 0
        for proof in proofs where total < amount + Keyset.fee(for: chosen, in: keysets) {
            let (sum, overflow) = total.addingReportingOverflow(proof.amount)
            guard !overflow else { break }
            chosen.append(proof)
            total = sum
        }
        return chosen
    }

    /// NUT-08: enough blank outputs for change up to `overpaid`, `max(ceil(log2(overpaid)), 1)`
    /// of them (none when nothing can come back).
    public static func blankOutputCount(for overpaid: UInt64) -> Int {
        guard overpaid > 0 else { return 0 }
        var count = 0
        while count < 64, UInt64(1) << count < overpaid { count += 1 }
        return max(count, 1)
    }

    /// The change: each signature unblinded with the blank output it signs, found by its DLEQ
    /// proof (the mint sets the amounts, and need not keep the outputs' order).
    static func unblind(
        _ change: [BlindSignature], blanks: [PreparedOutput], keysets: [Keyset]
    ) throws -> [Proof] {
        var unused = blanks
        return try change.map { signature in
            let keyset = try Self.keyset(signature.keysetID, in: keysets)
            for (index, blank) in unused.enumerated() where blank.keysetID == signature.keysetID {
                let output = try PreparedOutput(
                    amount: signature.amount, keysetID: blank.keysetID, secret: blank.secret,
                    r: blank.r)
                if let proof = try? output.proof(from: signature, keyset: keyset) {
                    unused.remove(at: index)
                    return proof
                }
            }
            throw CashuError(
                .badSignature, field: "change",
                "the mint's change for \(signature.amount) signs none of the blank outputs")
        }
    }

    /// The active keyset in `unit` at `mint`, whose keys the wallet holds, and every keyset
    /// held for that mint.
    @discardableResult
    func activeKeyset(
        unit: String, mint: String
    ) throws -> (active: Keyset, keysets: [Keyset]) {
        let keysets = try store.keysets(mint: mint)
        guard !keysets.isEmpty else {
            throw NodeError(
                .missing("mint \(mint) is not one this wallet holds keys for"),
                resolvedBy: .addMint(mint))
        }
        guard let active = keysets.first(where: { $0.unit == unit && $0.active }) else {
            throw NodeError(.missing("mint \(mint) has no active keyset in \(unit)"))
        }
        return (active, keysets)
    }

    /// The wallet's own unspent proofs in `unit` at `mint`, largest first (as `inputs` takes
    /// them).
    func ownProofs(unit: String, mint: String, keysets: [Keyset]) throws -> [Proof] {
        try store.proofs(mint: mint, states: ["unspent"])
            .filter { proof in keysets.first { $0.id == proof.keysetID }?.unit == unit }
            .sorted { $0.amount > $1.amount }
    }

    /// A failure as the node's: the mint's refusal (a NUT-00 4xx) is a refusal, anything else
    /// from the mint means it could not be used now.
    static func lightningFailure(_ error: any Error) -> NodeError {
        if let error = error as? MintError {
            switch error.kind {
            case .refused(_?, _, let status) where (400..<500).contains(status) && status != 429:
                return NodeError(.refusedEcash(code: "mint-refused", reason: error.description))
            default: return NodeError(.unavailable(error.description))
            }
        }
        if error is CancellationError { return NodeError(.unavailable("cancelled")) }
        return failed(error)
    }
}

extension NodeError {
    var isEcashRefusal: Bool {
        if case .refusedEcash = kind { true } else { false }
    }
}
