import Tender

extension EthereumRPC {
    /// What spent each coin on chain (`consumed(coin)` in `vault`, at the head, in one
    /// batch): the transfer digest, or zero while nothing has.
    public func vaultConsumed(
        _ vault: Address, coins: [Bytes32]
    ) async throws(EVMError) -> [Bytes32: Bytes32] {
        guard !coins.isEmpty else { return [:] }
        let head = BlockTag.number(try await blockNumber())
        let calls = coins.map {
            RPCCall(
                "eth_call",
                [CallRequest(to: vault, data: VaultCalls.consumed(coin: $0)).json, head.json])
        }
        var consumed: [Bytes32: Bytes32] = [:]
        for (coin, result) in zip(coins, try await batch(calls)) {
            let data = try result.get().data("eth_call")
            guard let value = try? ABI.decode([.bytes32], from: data).first,
                case .bytes32(let digest) = value
            else { throw .malformedResponse("the vault's consumed view: \(data.count) bytes") }
            consumed[coin] = digest
        }
        return consumed
    }
}
