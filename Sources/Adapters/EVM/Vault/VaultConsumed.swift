import Tender

extension EthereumRPC {
    /// What spent each coin on chain (`consumed(coin)` in `vault`, at the head, in one
    /// batch): the transfer digest, or zero while nothing has.
    public func vaultConsumed(
        _ vault: Address, coins: [Bytes32]
    ) async throws(EVMError) -> [Bytes32: Bytes32] {
        guard !coins.isEmpty else { return [:] }
        let values = try await vaultViews(
            vault, coins.map(VaultCalls.consumed), returning: .bytes32, at: try await blockNumber())
        var consumed: [Bytes32: Bytes32] = [:]
        for (coin, value) in zip(coins, values) {
            if case .bytes32(let digest) = value { consumed[coin] = digest }
        }
        return consumed
    }

    /// What `vault` owes `redeemer` in each of `assets` (`owed(redeemer, asset)`: token payouts
    /// the token refused), at the head; assets owed nothing are left out.
    public func vaultOwed(
        _ vault: Address, to redeemer: Address, in assets: [Address]
    ) async throws(EVMError) -> [Address: Wei] {
        guard !assets.isEmpty else { return [:] }
        let values = try await vaultViews(
            vault, assets.map { VaultCalls.owed(redeemer: redeemer, asset: $0) },
            returning: .uint256, at: try await blockNumber())
        var owed: [Address: Wei] = [:]
        for (asset, value) in zip(assets, values) {
            if case .uint(let amount) = value, amount > 0 { owed[asset] = amount }
        }
        return owed
    }

    /// Which of `spends` (a coin and the key said to have spent it twice) a fraud proof put
    /// on record (`doubleSpentBy(coin, signer)`), in one batch at the head.
    /// A vault deployed before `doubleSpentBy` keeps one signer per coin (`doubleSpender`):
    /// read there, a spend is on record when that signer is the one asked about.
    public func vaultDoubleSpends(
        _ vault: Address, _ spends: [(coin: Bytes32, signer: Address)]
    ) async throws(EVMError) -> [Bool] {
        guard !spends.isEmpty else { return [] }
        let block = try await blockNumber()
        do {
            let values = try await vaultViews(
                vault, spends.map { VaultCalls.doubleSpentBy(coin: $0.coin, signer: $0.signer) },
                returning: .bool, at: block)
            return values.map { if case .bool(true) = $0 { true } else { false } }
        } catch {
            guard
                let values = try? await vaultViews(
                    vault, spends.map { VaultCalls.doubleSpender(coin: $0.coin) },
                    returning: .address, at: block)
            else { throw error }
            return zip(spends, values).map { spend, value in
                if case .address(let signer) = value { signer == spend.signer } else { false }
            }
        }
    }
}
