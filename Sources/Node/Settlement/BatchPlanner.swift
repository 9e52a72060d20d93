import Tender

/// A coin this node holds and can redeem: its proof and the vault that backs it.
public struct RedeemableCoin: Sendable, Hashable {
    public let coin: CoinID
    public let proof: ProofBundle
    public let domain: Domain
    /// Its issuer's asset had a redeem revert: it goes in batches of that asset alone, so that
    /// a culprit is found and the others settle.
    public let isolated: Bool
    /// What it pays in the chain's own coin, to weigh against the gas of redeeming it; nil:
    /// not weighed (a token's coin: its worth in the chain's coin is not known here).
    public let value: Amount?

    public init(
        coin: CoinID, proof: ProofBundle, domain: Domain, isolated: Bool = false,
        value: Amount? = nil
    ) {
        self.coin = coin
        self.proof = proof
        self.domain = domain
        self.isolated = isolated
        self.value = value
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
        try plan(coins, gasPrice: nil).batches
    }

    /// The batches, weighing each coin of known value against the gas its redeem adds at
    /// `gasPrice` (the chain's coin per unit of gas; nil: nothing weighed): a coin worth less
    /// than the gas it adds to its batch (its own slot and payout, and the notes and transfers
    /// no other coin of the batch shares), or a batch of such coins worth less than the whole
    /// batch costs, waits: for cheaper gas, or for coins to share its proof with.
    public func plan(
        _ coins: [RedeemableCoin], gasPrice: Amount?
    ) throws(SettlementError) -> RedeemPlan {
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
        var result = RedeemPlan()
        for lot in order {
            for members in try group(lots[lot]!, in: lot.domain) {
                let weighed = gasPrice.map { weigh(members, in: lot.domain, at: $0) }
                if let weighed { result.waiting += weighed.waiting }
                let kept = weighed?.kept ?? members
                guard !kept.isEmpty else { continue }
                var shape = Shape(domain: lot.domain)
                kept.forEach { shape.add($0) }
                result.batches.append(try finish(kept, shape, lot.domain))
            }
        }
        return result
    }

    /// Splits `coins` into groups, in order, each as large as the gas budget allows.
    private func group(
        _ coins: [RedeemableCoin], in domain: Domain
    ) throws(SettlementError) -> [[RedeemableCoin]] {
        var groups: [[RedeemableCoin]] = []
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
            groups.append(members)
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
        if !members.isEmpty { groups.append(members) }
        return groups
    }

    /// The members of a group worth their gas at `price`, and those that wait. A coin's gas is
    /// what it alone adds; dropping one can leave another alone with a transfer they shared,
    /// so the weighing repeats until nothing more is dropped.
    private func weigh(
        _ members: [RedeemableCoin], in domain: Domain, at price: Amount
    ) -> (kept: [RedeemableCoin], waiting: [WaitingCoin]) {
        // Each coin's proof items hashed once: the rounds below only count them.
        var kept = members.map { ProofItems($0, in: domain, gas: gas) }
        var waiting: [WaitingCoin] = []
        func wait(_ items: ProofItems, _ shares: Shares) -> WaitingCoin? {
            guard let value = items.coin.value else { return nil }
            let gas = shares.gasAddedBy(items, gas: self.gas)
            return WaitingCoin(
                coin: items.coin.coin, value: value, gas: gas, fee: Self.fee(gas, at: price))
        }
        while true {
            let shares = Shares(kept)
            var dropped: [WaitingCoin] = []
            kept.removeAll { items in
                guard let coin = wait(items, shares), coin.value < coin.fee else { return false }
                dropped.append(coin)
                return true
            }
            waiting += dropped
            if dropped.isEmpty { break }
        }
        // Every coin weighed and each worth its own gas, but not the batch's base together.
        let values = kept.compactMap(\.coin.value)
        guard !kept.isEmpty, values.count == kept.count else { return (kept.map(\.coin), waiting) }
        var shape = Shape(domain: domain)
        kept.forEach { shape.add($0.coin) }
        let cost = Self.fee(shape.cost(gas), at: price)
        guard (checkedSum(values) ?? .max) < cost else { return (kept.map(\.coin), waiting) }
        let shares = Shares(kept)
        waiting += kept.compactMap { wait($0, shares) }
        return ([], waiting)
    }

    /// `gas` at `price`, saturating.
    static func fee(_ gas: UInt64, at price: Amount) -> Amount {
        let (fee, overflow) = Amount(gas).multipliedReportingOverflow(by: price)
        return overflow ? .max : fee
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

/// What a weighed plan holds: the batches to send, and the coins that wait.
public struct RedeemPlan: Sendable {
    public var batches: [PlannedBatch] = []
    /// Coins worth less than the gas their redeem would add now.
    public var waiting: [WaitingCoin] = []
}

/// A coin not worth its gas now: what it pays and what redeeming it would add.
public struct WaitingCoin: Sendable, Equatable {
    public let coin: CoinID
    public let value: Amount
    public let gas: UInt64
    /// `gas` at the price weighed, in the chain's coin.
    public let fee: Amount

    public init(coin: CoinID, value: Amount, gas: UInt64, fee: Amount) {
        self.coin = coin
        self.value = value
        self.gas = gas
        self.fee = fee
    }
}

/// A coin with the keys of its proof's notes and transfers, and each transfer's gas.
private struct ProofItems {
    let coin: RedeemableCoin
    let notes: [CoinID]
    let transfers: [(digest: Bytes32, gas: UInt64)]
    /// Its token payout (nil: the chain's coin, paid with the batch's).
    let payout: Payout?

    init(_ coin: RedeemableCoin, in domain: Domain, gas: RedeemGasModel) {
        self.coin = coin
        notes = coin.proof.notes.map { $0.coinID(in: domain) }
        transfers = coin.proof.transfers.map { signed in
            let transfer = signed.transfer
            return (
                transfer.digest(in: domain),
                gas.perTransfer + gas.perExtraInput * UInt64(max(0, transfer.inputs.count - 1))
                    + gas.perOutput * UInt64(transfer.outputs.count)
            )
        }
        payout = coin.payout.flatMap { $0.asset == .zero ? nil : $0 }
    }
}

/// How many coins of a group each note, transfer and token payout serves.
private struct Shares {
    var notes: [CoinID: Int] = [:]
    var transfers: [Bytes32: Int] = [:]
    var payouts: [Payout: Int] = [:]

    init(_ group: [ProofItems]) {
        for items in group {
            for note in items.notes { notes[note, default: 0] += 1 }
            for transfer in items.transfers { transfers[transfer.digest, default: 0] += 1 }
            if let payout = items.payout { payouts[payout, default: 0] += 1 }
        }
    }

    /// The gas a coin alone adds: its slot, and what no other coin of the group shares.
    func gasAddedBy(_ items: ProofItems, gas: RedeemGasModel) -> UInt64 {
        var added = gas.perCoin
        for note in items.notes where notes[note] == 1 { added += gas.perNote }
        for transfer in items.transfers where transfers[transfer.digest] == 1 {
            added += transfer.gas
        }
        if let payout = items.payout, payouts[payout] == 1 { added += gas.perTokenPayout }
        return added
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
