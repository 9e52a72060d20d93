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

    /// Whom a fraud proof convicted for each coin (`doubleSpender(coin)`; zero: none yet).
    public func vaultDoubleSpenders(
        _ vault: Address, coins: [Bytes32]
    ) async throws(EVMError) -> [Bytes32: Address] {
        guard !coins.isEmpty else { return [:] }
        let values = try await vaultViews(
            vault, coins.map(VaultCalls.doubleSpender), returning: .address,
            at: try await blockNumber())
        var spenders: [Bytes32: Address] = [:]
        for (coin, value) in zip(coins, values) {
            if case .address(let owner) = value { spenders[coin] = owner }
        }
        return spenders
    }
}
