import BigInt
import Tender

/// Issuers' collateral in a vault at one block, read from the chain: every (issuer, asset)
/// that ever deposited, its collateral now, and each issuer's lock.
public struct VaultCollateral: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public let issuer: Address
        public let asset: Address
        public let amount: Wei

        public init(issuer: Address, asset: Address, amount: Wei) {
            self.issuer = issuer
            self.asset = asset
            self.amount = amount
        }
    }

    public let block: UInt64
    public let entries: [Entry]
    /// Unix seconds; 0 for an issuer that never locked.
    public let lockedUntil: [Address: Wei]
}

extension EthereumRPC {
    /// Reads `vault`'s collateral at the head: issuers and assets from its `Deposited` events,
    /// then every `collateral` and `lockedUntil` at that block, in one batch.
    public func vaultCollateral(_ vault: Address) async throws(EVMError) -> VaultCollateral {
        let head = try await blockNumber()
        let deposits = try await logs(
            LogFilter(
                fromBlock: .earliest, toBlock: .number(head), addresses: [vault],
                topics: [[VaultCalls.Event.deposited]]))
        var pairs: [(issuer: Address, asset: Address)] = []
        var seen = Set<[UInt8]>()
        for log in deposits where log.topics.count >= 3 {
            let issuer = try Self.topicAddress(log.topics[1])
            let asset = try Self.topicAddress(log.topics[2])
            if seen.insert(issuer.bytes + asset.bytes).inserted {
                pairs.append((issuer, asset))
            }
        }
        let issuers = Array(Set(pairs.map(\.issuer))).sorted()
        let calls =
            pairs.map { VaultCalls.collateral(issuer: $0.issuer, asset: $0.asset) }
            + issuers.map { VaultCalls.lockedUntil(issuer: $0) }
        let answers = try await vaultViews(vault, calls, returning: .uint256, at: head).map {
            $0.uint ?? 0
        }
        let entries = pairs.enumerated().map {
            VaultCollateral.Entry(issuer: $1.issuer, asset: $1.asset, amount: answers[$0])
        }
        var locks: [Address: Wei] = [:]
        for (index, issuer) in issuers.enumerated() { locks[issuer] = answers[pairs.count + index] }
        return VaultCollateral(block: head, entries: entries, lockedUntil: locks)
    }

    static func topicAddress(_ topic: Bytes32) throws(EVMError) -> Address {
        guard topic.bytes.prefix(12).allSatisfy({ $0 == 0 }),
            let address = try? Address(bytes: topic.bytes.suffix(20))
        else { throw .malformedResponse("an event topic that is not an address: \(topic.hex)") }
        return address
    }
}
