import Tender

extension EthereumRPC {
    /// Calls views of `vault` at block `number`, in one batch, each answer decoded as `type`:
    /// one block for all, so the figures agree with each other.
    func vaultViews(
        _ vault: Address, _ calls: [[UInt8]], returning type: ABIType, at number: UInt64
    ) async throws(EVMError) -> [ABIValue] {
        guard !calls.isEmpty else { return [] }
        let block = BlockTag.number(number)
        let answers = try await batch(
            calls.map { RPCCall("eth_call", [CallRequest(to: vault, data: $0).json, block.json]) })
        var values: [ABIValue] = []
        for result in answers {
            let data = try result.get().data("eth_call")
            do { values.append(try ABI.decode([type], from: data)[0]) } catch {
                throw .malformedResponse("a view of vault \(vault): \(error)")
            }
        }
        return values
    }

    /// One `uint256` view of `vault` (a `collateral` or `lockedUntil` call) at the head.
    public func vaultUInt(_ vault: Address, _ call: [UInt8]) async throws(EVMError) -> Wei {
        let answer = try await self.call(CallRequest(to: vault, data: call))
        do { return try ABI.decode([.uint256], from: answer)[0].uint ?? 0 } catch {
            throw .malformedResponse("a view of vault \(vault): \(error)")
        }
    }
}
