import Tender

extension EthereumRPC {
    /// What spent each coin on chain (`consumed(coin)` in `vault`, at the head, in one
    /// batch): the transfer digest, or zero while nothing has.
    public func vaultConsumed(
        _ vault: Address, coins: [Bytes32]
    ) async throws(EVMError) -> [Bytes32: Bytes32] {
        var consumed: [Bytes32: Bytes32] = [:]
        for (coin, value) in try await viewPerCoin(vault, coins, VaultCalls.consumed, .bytes32) {
            guard case .bytes32(let digest) = value else { continue }
            consumed[coin] = digest
        }
        return consumed
    }

    /// Whom a fraud proof convicted for each coin (`doubleSpender(coin)`; zero: none yet).
    public func vaultDoubleSpenders(
        _ vault: Address, coins: [Bytes32]
    ) async throws(EVMError) -> [Bytes32: Address] {
        var spenders: [Bytes32: Address] = [:]
        for (coin, value) in try await viewPerCoin(
            vault, coins, VaultCalls.doubleSpender, .address)
        {
            guard case .address(let owner) = value else { continue }
            spenders[coin] = owner
        }
        return spenders
    }

    /// One view per coin, at one block (the head), in one batch.
    private func viewPerCoin(
        _ vault: Address, _ coins: [Bytes32], _ call: (Bytes32) -> [UInt8], _ type: ABIType
    ) async throws(EVMError) -> [(Bytes32, ABIValue)] {
        guard !coins.isEmpty else { return [] }
        let head = BlockTag.number(try await blockNumber())
        let calls = coins.map {
            RPCCall("eth_call", [CallRequest(to: vault, data: call($0)).json, head.json])
        }
        var values: [(Bytes32, ABIValue)] = []
        for (coin, result) in zip(coins, try await batch(calls)) {
            let data = try result.get().data("eth_call")
            guard let value = try? ABI.decode([type], from: data).first else {
                throw .malformedResponse(
                    "the vault's view for coin \(coin.hex): \(data.count) bytes")
            }
            values.append((coin, value))
        }
        return values
    }
}
