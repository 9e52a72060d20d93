import Tender

/// A coin this node holds and can redeem: its proof and the vault that backs it.
public struct RedeemableCoin: Sendable, Hashable {
    public let coin: CoinID
    public let proof: ProofBundle
    public let domain: Domain
    /// Its issuer's asset had a redeem revert: it goes in batches of that asset alone, so that
    /// a culprit is found and the others settle.
    public let isolated: Bool

    public init(coin: CoinID, proof: ProofBundle, domain: Domain, isolated: Bool = false) {
        self.coin = coin
        self.proof = proof
        self.domain = domain
        self.isolated = isolated
    }

    /// The issuer and asset of its notes (one of each: a transfer mixes neither).
    var payout: Payout? {
        proof.notes.first.map { Payout(issuer: $0.note.issuer, asset: $0.note.asset) }
    }
}

/// One payout of a batch: an issuer's collateral in one asset.
struct Payout: Hashable {
    let issuer: Address
    let asset: Address
}

/// One planned `redeem()`: coins of one vault whose merged proofs fit the gas budget.
public struct PlannedBatch: Sendable {
    public let domain: Domain
    public let coins: [CoinID]
    public let batch: RedeemBatch
    public let estimatedGas: UInt64
}

/// Splits what a node holds into redeem batches: one vault per batch, coins in the order given
/// (the oldest first, so nothing waits behind a stream of new ones), each batch as large as
/// the gas budget allows; isolated coins in batches of their issuer's asset alone. Pure: the
/// sync engine gives it the coins and the chain's gas limit.
public struct BatchPlanner: Sendable {
    public var gas: RedeemGasModel
    /// The most gas one batch may be estimated at (half a 30 M block by default: a batch never
    /// crowds a block, and the estimate's margin stays on the safe side).
    public var budget: UInt64

    public init(gas: RedeemGasModel = RedeemGasModel(), budget: UInt64 = 15_000_000) {
        self.gas = gas
        self.budget = budget
    }

    public func plan(_ coins: [RedeemableCoin]) throws(SettlementError) -> [PlannedBatch] {
        struct Lot: Hashable {
            let domain: Domain
            /// Nil: coins of any issuer and asset together.
            let isolated: Payout?
        }
        var order: [Lot] = []
        var lots: [Lot: [RedeemableCoin]] = [:]
        for coin in coins {
            let lot = Lot(domain: coin.domain, isolated: coin.isolated ? coin.payout : nil)
            if lots[lot] == nil { order.append(lot) }
            lots[lot, default: []].append(coin)
        }
        var batches: [PlannedBatch] = []
        for lot in order {
            batches += try plan(lots[lot]!, in: lot.domain)
        }
        return batches
    }

    private func plan(
        _ coins: [RedeemableCoin], in domain: Domain
    ) throws(SettlementError) -> [PlannedBatch] {
        var batches: [PlannedBatch] = []
        var shape = Shape(domain: domain)
        var members: [RedeemableCoin] = []
        for coin in coins {
            var grown = shape
            grown.add(coin)
            if grown.cost(gas) <= budget {
                shape = grown
                members.append(coin)
                continue
            }
            guard !members.isEmpty else {
                throw SettlementError(
                    .unprovable(
                        "coin \(coin.coin.short) alone is estimated at \(grown.cost(gas)) gas, over the budget of \(budget)"
                    ))
            }
            batches.append(try finish(members, shape, domain))
            shape = Shape(domain: domain)
            shape.add(coin)
            members = [coin]
            guard shape.cost(gas) <= budget else {
                throw SettlementError(
                    .unprovable(
                        "coin \(coin.coin.short) alone is estimated at \(shape.cost(gas)) gas, over the budget of \(budget)"
                    ))
            }
        }
        if !members.isEmpty { batches.append(try finish(members, shape, domain)) }
        return batches
    }

    private func finish(
        _ members: [RedeemableCoin], _ shape: Shape, _ domain: Domain
    ) throws(SettlementError) -> PlannedBatch {
        let batch = try RedeemBatch(
            bundles: members.map(\.proof), coins: members.map(\.coin), domain: domain)
        return PlannedBatch(
            domain: domain, coins: batch.coins, batch: batch, estimatedGas: shape.cost(gas))
    }
}

/// The distinct notes and transfers a growing batch carries, and its coins.
private struct Shape {
    let domain: Domain
    var notes: Set<CoinID> = []
    var transfers: Set<Bytes32> = []
    /// One payout per issuer and token.
    var tokenPayouts: Set<Payout> = []
    var inputs = 0
    var outputs = 0
    var coins = 0

    init(domain: Domain) { self.domain = domain }

    mutating func add(_ coin: RedeemableCoin) {
        for note in coin.proof.notes {
            notes.insert(note.coinID(in: domain))
            if note.note.asset != .zero {
                tokenPayouts.insert(Payout(issuer: note.note.issuer, asset: note.note.asset))
            }
        }
        for transfer in coin.proof.transfers
        where transfers.insert(transfer.transfer.digest(in: domain)).inserted {
            inputs += transfer.transfer.inputs.count
            outputs += transfer.transfer.outputs.count
        }
        coins += 1
    }

    func cost(_ gas: RedeemGasModel) -> UInt64 {
        gas.cost(
            notes: notes.count, transfers: transfers.count, inputs: inputs, outputs: outputs,
            coins: coins, tokenPayouts: tokenPayouts.count)
    }
}
