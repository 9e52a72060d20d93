import Cashu
import CashuMint
import CashuStore
import Codecs
import NodeKit
import Secp256k1

extension CashuWallet {
    /// Brings the wallet up to date with `client`'s mint: its keysets fetched again, swaps cut
    /// short resolved (NUT-09 restore, NUT-07 state), mints and melts cut short finished
    /// (`finishLightning`), and every proof taken offline swapped for
    /// fresh ones of the wallet's own (NUT-03). A proof the mint says was spent before is kept
    /// as refused, with its token. Nothing here is lost to a crash: a swap is recorded with its
    /// outputs before it is sent.
    public func settle(
        with client: MintClient, now: @Sendable () -> UInt64
    ) async -> CashuSettlement {
        var report = CashuSettlement(mint: client.url)
        do {
            let before = Set(try store.keysets(mint: client.url).map(\.id))
            let keys = try await client.keys()
            try store.saveKeysets(keys.keysets, mint: client.url, now: now())
            report.newKeysets = keys.keysets.filter { !before.contains($0.id) }.count
            let held = try store.keysets(mint: client.url)
            for pending in try store.pendingSwaps() where pending.mint == client.url {
                let completed = try await resolve(pending, client: client, now: now)
                report.recovered += 1
                // What a swap of tokens taken offline gave is swapped, whichever sync ends it.
                if completed, pending.takenOffline,
                    let unit = held.first(where: { $0.id == pending.outputs.first?.keysetID })?.unit
                {
                    report.swapped[unit, default: 0] += pending.outputs.reduce(0) { $0 + $1.amount }
                }
            }
            report.recovered += try await finishLightning(client: client, now: now)
            let received = try store.proofs(mint: client.url, states: ["received"])
            try await swap(received, client: client, now: now, into: &report)
        } catch {
            report.failure = "\(error)"
        }
        return report
    }

    /// The mints a sync has to visit: tokens taken and not swapped, swaps cut short, mint and
    /// melt quotes not finished.
    public func mintsToSettle() throws -> [String] {
        Set(
            try store.mintsWithReceivedProofs() + store.pendingSwaps().map(\.mint)
                + store.mintsWithOpenQuotes()
        ).sorted()
    }

    /// A swap whose answer never arrived: the mint signed its outputs (restore gives them), or
    /// it did not, and the inputs are then as they were (unspent) or spent by someone else.
    @discardableResult
    func resolve(
        _ pending: PendingSwap, client: MintClient, now: @Sendable () -> UInt64
    ) async throws -> Bool {
        let restored = try await client.restore(pending.outputs.map(\.message))
        if restored.count == pending.outputs.count {
            let keysets = try store.keysets(mint: client.url)
            let proofs = try zip(pending.outputs, restored).map { output, pair in
                try output.proof(
                    from: pair.1, keyset: try Self.keyset(output.keysetID, in: keysets))
            }
            try store.completeSwap(
                pending.id, proofs: proofs, now: now(),
                giving: try interruptedGive(proofs, mint: client.url, keysets: keysets))
            return true
        }
        guard restored.isEmpty else {
            throw NodeError(
                .io(
                    "mint \(client.url) restored \(restored.count) of swap \(pending.id)'s \(pending.outputs.count) outputs: left pending"
                ))
        }
        let states = try await client.checkState(try pending.inputs.map { try $0.y() })
        // Still held by a transaction at the mint: its fate is not known yet.
        guard !states.contains(where: { $0.state == .pending }) else {
            throw NodeError(
                .unavailable(
                    "swap \(pending.id)'s inputs are pending at mint \(client.url): left pending"))
        }
        var refused: [[UInt8]: String] = [:]
        for state in states where state.state == .spent {
            refused[state.y] =
                "the mint says it was spent, and not by this wallet's swap: spent elsewhere"
        }
        try store.failSwap(pending.id, refused: refused, now: now())
        return false
    }

    /// A give locked to a payee (`send --lock-to`) cut short after its swap: its locked
    /// outputs are the payee's (this wallet can take them back only after their locktime), so
    /// they are given as the swap completes, their token kept as an outgoing payment to hand
    /// over, never counted spendable. Nil when no output is locked to another key.
    func interruptedGive(
        _ proofs: [Proof], mint: String, keysets: [Keyset]
    ) throws -> CashuDatabase.Giving? {
        let own = Hex.encode(lockPublicKey.compressed, prefix: false)
        let locked = proofs.filter { proof in
            guard let condition = try? SpendingCondition.parse(proof.secret) else { return false }
            return condition.data.lowercased() != own
        }
        // One swap's outputs share its active keyset, so one unit.
        guard let first = locked.first,
            let unit = keysets.first(where: { $0.id == first.keysetID })?.unit
        else { return nil }
        return CashuDatabase.Giving(
            ys: Set(try locked.map { try $0.y() }), unit: unit, memo: nil
        ) { Token(mint: mint, unit: unit, memo: nil, proofs: $0).encoded() }
    }

    static func keyset(_ id: [UInt8], in keysets: [Keyset]) throws -> Keyset {
        guard let keyset = keysets.first(where: { $0.id == id }) else {
            throw CashuError(
                .unknownKeyset, field: "keyset",
                "keyset \(Hex.encode(id, prefix: false)) is not held")
        }
        return keyset
    }

    /// Swaps `proofs` (taken offline) for fresh ones, unit by unit.
    func swap(
        _ proofs: [Proof], client: MintClient, now: @Sendable () -> UInt64,
        into report: inout CashuSettlement
    ) async throws {
        let keysets = try store.keysets(mint: client.url)
        let byUnit = Dictionary(grouping: proofs) { proof in
            keysets.first { $0.id == proof.keysetID }?.unit ?? ""
        }
        for (unit, inputs) in byUnit.sorted(by: { $0.key < $1.key }) {
            guard let active = keysets.first(where: { $0.unit == unit && $0.active }) else {
                report.failure = "mint \(client.url) has no active keyset in \(unit)"
                continue
            }
            for batch in Self.batches(inputs) {
                try await swap(
                    batch, to: active, keysets: keysets, client: client, now: now, into: &report,
                    retry: true)
            }
        }
    }

    /// Swaps of at most `maximumInputs` proofs whose amounts (and fees) add up without
    /// overflow: a mint caps the inputs of one swap (NUT-03, code 11014), and a hostile mint
    /// could sign amounts that together pass 2^64.
    public static func batches(_ proofs: [Proof]) -> [[Proof]] {
        var batches: [[Proof]] = []
        var current: [Proof] = []
        var total: UInt64 = 0
        for proof in proofs {
            let (sum, overflow) = total.addingReportingOverflow(proof.amount)
            if current.count == maximumInputs || overflow || sum > UInt64.max / 2 {
                if !current.isEmpty { batches.append(current) }
                current = []
                total = 0
            }
            current.append(proof)
            total += proof.amount
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    public static let maximumInputs = 64

    private func swap(
        _ inputs: [Proof], to active: Keyset, keysets: [Keyset], client: MintClient,
        now: @Sendable () -> UInt64,
        into report: inout CashuSettlement, retry: Bool
    ) async throws {
        let total = inputs.reduce(UInt64(0)) { $0 + $1.amount }
        let fee = Keyset.fee(for: inputs, in: keysets)
        guard total > fee else { return }
        var generator = SystemRandomNumberGenerator()
        let outputs = (total - fee).powersOfTwo.map {
            PreparedOutput.random(amount: $0, keysetID: active.id, using: &generator)
        }
        let signed = try unlocked(inputs, outputs: outputs)
        let swapID = try store.beginSwap(
            mint: client.url, inputs: inputs, outputs: outputs, now: now())
        let signatures: [BlindSignature]
        do {
            signatures = try await client.swap(inputs: signed, outputs: outputs.map(\.message))
        } catch {
            switch try await failed(swapID, inputs: inputs, error: error, client: client, now: now)
            {
            case .pending, .heldAsBefore:
                throw error
            case .someSpentElsewhere:
                // Those are refused now; the rest are swapped on their own.
                let left = try store.proofs(mint: client.url, states: ["received"])
                    .filter { proof in inputs.contains { $0.secret == proof.secret } }
                report.refused[active.unit, default: 0] += total - left.reduce(0) { $0 + $1.amount }
                guard retry else { return }
                try await swap(
                    left, to: active, keysets: keysets, client: client, now: now, into: &report,
                    retry: false)
            case .refusedInput(let reason):
                // One bad proof must not condemn the others: each is tried alone, and only a
                // proof the mint refuses by itself is refused.
                guard inputs.count > 1 else {
                    try store.failSwap(swapID, refused: [try inputs[0].y(): reason], now: now())
                    report.refused[active.unit, default: 0] += total
                    return
                }
                try store.failSwap(swapID, refused: [:], now: now())
                for proof in inputs {
                    do {
                        try await swap(
                            [proof], to: active, keysets: keysets, client: client, now: now,
                            into: &report, retry: false)
                    } catch let error as MintError where error.code != nil {
                        continue  // recorded by the single swap
                    }
                }
            }
            return
        }
        // The mint has spent the inputs now: a signature that does not check out leaves the
        // swap pending (restore is tried again at the next sync) rather than losing track.
        let proofs = try zip(outputs, signatures).map { output, signature in
            try output.proof(from: signature, keyset: active)
        }
        try store.completeSwap(swapID, proofs: proofs, now: now())
        report.swapped[active.unit, default: 0] += total - fee
    }

    /// What became of a swap the mint did not answer with signatures.
    enum SwapFailure {
        /// Its fate is unknown (no answer, a broken or unreadable one, a server error): left
        /// pending, resolved from the mint's records (restore, state) at the next sync.
        case pending
        /// The mint refused it outright and the inputs are held as before.
        case heldAsBefore
        /// Some inputs were spent elsewhere (refused now); the others are held as before.
        case someSpentElsewhere
        /// The mint refused the inputs themselves (code and words): the swap is still
        /// pending here, for the caller to find which input.
        case refusedInput(String)
    }

    /// Decides a swap's record from the mint's error. Only a definite NUT-00 refusal (a 4xx
    /// with a code) ends a swap here: after anything else the mint may have carried it out.
    private func failed(
        _ swap: Int64, inputs: [Proof], error: MintError, client: MintClient,
        now: @Sendable () -> UInt64
    ) async throws -> SwapFailure {
        switch error.kind {
        case .refused(let code?, let detail, let status)
        where (400..<500).contains(status) && status != 429:
            if error.isAlreadySpent {
                let states = try await client.checkState(try inputs.map { try $0.y() })
                var refused: [[UInt8]: String] = [:]
                for state in states where state.state == .spent {
                    refused[state.y] =
                        "spent before this wallet swapped it: \(detail) (code \(code))"
                }
                try store.failSwap(swap, refused: refused, now: now())
                return refused.isEmpty ? .heldAsBefore : .someSpentElsewhere
            }
            if !Self.requestCodes.contains(code) {
                return .refusedInput("\(detail) (code \(code))")
            }
            try store.failSwap(swap, refused: [:], now: now())
            return .heldAsBefore
        case .invalidRequest:
            try store.failSwap(swap, refused: [:], now: now())  // never sent
            return .heldAsBefore
        default:
            return .pending
        }
    }

    /// The mint's codes about the request rather than its inputs (error_codes.md): outputs
    /// already signed or pending, an unbalanced or oversized swap, units, an inactive keyset
    /// for the outputs. The proofs are held as before, to be tried again. Any other refusal
    /// (a proof or witness that fails, an unknown or expired keyset, nutshell's generic 11000
    /// and 0) may be about one input: the batch is split to find the proof the mint refuses
    /// alone, so one bad proof cannot hold the others back.
    static let requestCodes: Set<Int> = [
        11002, 11003, 11004, 11005, 11006, 11008, 11009, 11010, 11014, 11015, 11016, 11017, 12002,
    ]

    /// The inputs with the witnesses their locks need: a signature by this wallet's lock key
    /// over each secret (NUT-11 SIG_INPUTS), or over the whole swap (SIG_ALL).
    func unlocked(_ inputs: [Proof], outputs: [PreparedOutput]) throws -> [Proof] {
        var signed: [Proof] = []
        for proof in inputs {
            guard let condition = try proof.condition(), condition.kind == "P2PK" else {
                signed.append(proof)
                continue
            }
            let lock = try P2PKLock(condition)
            let message: [UInt8]
            switch lock.signatureFlag {
            case .inputs: message = P2PKLock.message(secret: proof.secret)
            case .all:
                var text = inputs.map {
                    $0.secret + Hex.encode($0.signature.compressed, prefix: false)
                }.joined()
                text += outputs.map {
                    "\($0.amount)" + Hex.encode($0.message.blinded.compressed, prefix: false)
                }
                .joined()
                message = P2PKLock.message(secret: text)
            }
            let signature = try lockKey.schnorrSign(message: message)
            signed.append(proof.with(witness: P2PKLock.witness(signatures: [signature])))
        }
        return signed
    }
}
