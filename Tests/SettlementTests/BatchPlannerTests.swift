import Settlement
import Tender
import TenderTestSupport
import Testing

/// Planning what a node holds into redeem batches: one vault per batch, coins in the order
/// given, each batch under the gas budget, shared proof counted once.
@Suite struct BatchPlannerTests {
    let world = World()

    /// Bob's coins from `count` payments by Alice, one note each (serials 1…count).
    func bobsCoins(_ count: Int, in domain: Domain) -> [RedeemableCoin] {
        (1...count).map { serial in
            let note = world.note(100, serial: UInt8(serial))
            let signed = try! SignedNote(signing: note.note, with: world.issuerKey, in: domain)
            let transfer = Transfer(
                inputs: [signed.coinID(in: domain)],
                outputs: [
                    Output(owner: world.bob, amount: 60), Output(owner: world.alice, amount: 40),
                ])
            let spent = try! SignedTransfer(signing: transfer, with: world.aliceKey, in: domain)
            let coin = spent.outputCoins(digest: transfer.digest(in: domain))[0]
            return RedeemableCoin(
                coin: coin, proof: ProofBundle(notes: [signed], transfers: [spent]), domain: domain)
        }
    }

    /// A note of the issuer's for Bob, redeemed as it is.
    func coin(_ serial: UInt8, asset: Address, isolated: Bool = false) throws -> RedeemableCoin {
        let note = try SignedNote(
            signing: Note(
                serial: try Bytes32([UInt8](repeating: serial, count: 32)), issuer: world.issuer,
                asset: asset, amount: 100, owner: world.bob, expiry: world.expiry),
            with: world.issuerKey, in: world.domain)
        return RedeemableCoin(
            coin: note.coinID(in: world.domain), proof: ProofBundle(notes: [note], transfers: []),
            domain: world.domain, isolated: isolated)
    }

    @Test func batchesStayUnderTheBudgetAndKeepEveryCoinOnceInOrder() throws {
        let coins = bobsCoins(20, in: world.domain)
        let gas = RedeemGasModel()
        let one = gas.cost(notes: 1, transfers: 1, inputs: 1, outputs: 2, coins: 1) - gas.base
        let planner = BatchPlanner(budget: gas.base + one * 6)
        let batches = try planner.plan(coins)
        #expect(batches.count == 4)  // 6 + 6 + 6 + 2
        #expect(batches.flatMap(\.coins) == coins.map(\.coin))
        for batch in batches {
            #expect(batch.estimatedGas <= planner.budget)
            #expect(batch.batch.calldata.starts(with: RedeemBatch.selector))
        }
        #expect(try BatchPlanner().plan(coins).count == 1)
    }

    @Test func coinsSharingAProofCountItOnce() throws {
        // One transfer pays Bob four coins: the note and the transfer go in once.
        let note = world.note(100)
        let spent = world.transfer(
            [note.coinID(in: world.domain)], Array(repeating: (world.bob, 25), count: 4),
            by: world.aliceKey)
        let proof = ProofBundle(notes: [note], transfers: [spent])
        let coins = world.outputs(of: spent).map {
            RedeemableCoin(coin: $0, proof: proof, domain: world.domain)
        }
        let batch = try #require(try BatchPlanner().plan(coins).first)
        #expect(batch.batch.notes.count == 1 && batch.batch.transfers.count == 1)
        #expect(
            batch.estimatedGas
                == RedeemGasModel().cost(notes: 1, transfers: 1, inputs: 1, outputs: 4, coins: 4))
    }

    /// A token payout gets the whole gas the vault lets a token use, once per issuer and
    /// token: a token that burns it cannot run the batch out of gas.
    @Test func eachTokenPayoutIsBudgetedInFull() throws {
        let token = try Address("0x000000000000000000000000000000000000cafe")
        let gas = RedeemGasModel()
        let native = try #require(try BatchPlanner().plan([try coin(1, asset: .zero)]).first)
        let tokens = try #require(
            try BatchPlanner().plan([try coin(2, asset: token), try coin(3, asset: token)]).first)
        #expect(
            native.estimatedGas == gas.cost(notes: 1, transfers: 0, inputs: 0, outputs: 0, coins: 1)
        )
        #expect(
            tokens.estimatedGas
                == gas.cost(notes: 2, transfers: 0, inputs: 0, outputs: 0, coins: 2)
                + gas.perTokenPayout)
        #expect(gas.perTokenPayout > 150_000)
    }

    /// After a revert, coins of the batch's issuers' assets go out in batches of one asset
    /// each (the culprit alone, the others settled), the rest together as before.
    @Test func isolatedCoinsGoInBatchesOfTheirIssuersAssetAlone() throws {
        let token = try Address("0x000000000000000000000000000000000000cafe")
        let coins = [
            try coin(1, asset: .zero, isolated: true), try coin(2, asset: token, isolated: false),
            try coin(3, asset: token, isolated: true), try coin(4, asset: .zero, isolated: true),
            try coin(5, asset: .zero, isolated: false),
        ]
        let batches = try BatchPlanner().plan(coins).map(\.coins)
        #expect(
            batches == [
                [coins[0].coin, coins[3].coin], [coins[1].coin, coins[4].coin], [coins[2].coin],
            ])
    }

    @Test func eachVaultGetsItsOwnBatches() throws {
        let other = Domain(chainID: 31338, vault: world.domain.vault)
        let mixed =
            bobsCoins(2, in: world.domain) + bobsCoins(3, in: other)
            + bobsCoins(1, in: world.domain)
        let batches = try BatchPlanner().plan(mixed)
        #expect(batches.map(\.domain) == [world.domain, other])
        #expect(batches[0].coins.count == 3 && batches[1].coins.count == 3)
    }

    @Test func aCoinOverTheWholeBudgetIsRefusedByName() throws {
        let coins = bobsCoins(1, in: world.domain)
        #expect {
            _ = try BatchPlanner(budget: 50_000).plan(coins)
        } throws: { error in
            guard let error = error as? SettlementError, case .unprovable(let why) = error.kind
            else { return false }
            return why.contains("over the budget")
        }
    }
}

/// Weighing coins against the gas their redeem adds (a 1-wei coin never costs its payee
/// 400,000 gas): what is not worth its gas waits, coins that share a proof are weighed
/// together, and a token's coin, whose worth in the chain's coin is not known, is not weighed.
@Suite struct DustWeighingTests {
    let world = World()
    let gas = RedeemGasModel()

    /// Coins paid to Bob by one transfer of Alice's, each worth `value` in the chain's coin.
    func siblings(_ count: Int, value: Amount, serial: UInt8 = 1) -> [RedeemableCoin] {
        let note = world.note(1_000, serial: serial)
        let spent = world.transfer(
            [note.coinID(in: world.domain)], Array(repeating: (world.bob, 10), count: count),
            by: world.aliceKey)
        let proof = ProofBundle(notes: [note], transfers: [spent])
        return world.outputs(of: spent).map {
            RedeemableCoin(coin: $0, proof: proof, domain: world.domain, value: value)
        }
    }

    /// What one coin of a transfer with `outputs` outputs adds alone: its slot, note, transfer.
    func alone(outputs: Int) -> UInt64 {
        gas.perCoin + gas.perNote + gas.perTransfer + gas.perOutput * UInt64(outputs)
    }

    @Test func aCoinWorthLessThanTheGasItAddsWaitsAndATokenCoinIsNotWeighed() throws {
        let worth = siblings(1, value: 1_000_000, serial: 1)
        let dust = siblings(1, value: Amount(alone(outputs: 1)) - 1, serial: 2)
        let token = try Address("0x000000000000000000000000000000000000cafe")
        let note = try SignedNote(
            signing: Note(
                serial: try Bytes32([UInt8](repeating: 3, count: 32)), issuer: world.issuer,
                asset: token, amount: 1, owner: world.bob, expiry: world.expiry),
            with: world.issuerKey, in: world.domain)
        let tokenCoin = RedeemableCoin(
            coin: note.coinID(in: world.domain), proof: ProofBundle(notes: [note], transfers: []),
            domain: world.domain)

        let plan = try BatchPlanner().plan(worth + dust + [tokenCoin], gasPrice: 1)
        #expect(plan.batches.flatMap(\.coins) == [worth[0].coin, tokenCoin.coin])
        #expect(
            plan.waiting == [
                WaitingCoin(
                    coin: dust[0].coin, value: dust[0].value!, gas: alone(outputs: 1),
                    fee: Amount(alone(outputs: 1)))
            ])
        // In another order, the same; free gas, or no price, weighs nothing out.
        #expect(try BatchPlanner().plan(dust + worth, gasPrice: 1).waiting.count == 1)
        #expect(try BatchPlanner().plan(worth + dust, gasPrice: 0).waiting.isEmpty)
        #expect(try BatchPlanner().plan(dust, gasPrice: nil).batches.count == 1)
    }

    @Test func coinsThatShareAProofAreWeighedTogether() throws {
        // Alone, one of four siblings adds its note and transfer: more than it is worth.
        let value = Amount(gas.cost(notes: 1, transfers: 1, inputs: 1, outputs: 4, coins: 4) / 4)
        let four = siblings(4, value: value)
        #expect(value < Amount(alone(outputs: 4)))
        let lone = try BatchPlanner().plan([four[0]], gasPrice: 1)
        #expect(lone.batches.isEmpty && lone.waiting.map(\.coin) == [four[0].coin])
        #expect(lone.waiting[0].gas == alone(outputs: 4))
        // Together each adds its slot alone, and the four pay for the whole batch.
        let together = try BatchPlanner().plan(four, gasPrice: 1)
        #expect(together.waiting.isEmpty)
        #expect(together.batches.flatMap(\.coins) == four.map(\.coin))
    }

    @Test func coinsEachWorthTheirSlotButNotTheBatchTogetherWait() throws {
        let cost = gas.cost(notes: 1, transfers: 1, inputs: 1, outputs: 4, coins: 4)
        let four = siblings(4, value: Amount(cost / 4) - 1)
        #expect(Amount(cost / 4) - 1 > Amount(gas.perCoin))
        let plan = try BatchPlanner().plan(four, gasPrice: 1)
        #expect(plan.batches.isEmpty)
        #expect(plan.waiting.map(\.coin) == four.map(\.coin))
        #expect(plan.waiting.allSatisfy { $0.gas == gas.perCoin })
    }
}
