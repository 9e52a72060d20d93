import EVM
import NodeHost
import NodeKit
import Tender

/// How an issuer's amounts read (an issuer folder may have no wallet): the chain's coin as
/// this data directory's chain registry names it, else as Tender knows the chain; a token as
/// its contract says when a chain is at hand, else base units.
func issuerDenomination(
    of asset: Address, chainID: UInt64, host: NodeHost, rpc: EthereumRPC? = nil
) async throws -> Denomination {
    if asset == .zero {
        let configured = try host.chainRegistry().entries.lazy
            .filter { $0.domain.chainID == chainID }.compactMap(\.nativeCoin).first
        return configured ?? NativeCoins.denomination(chainID: chainID) ?? .baseUnits
    }
    guard let rpc else { return .baseUnits }
    do { return try await rpc.tokenDenomination(asset) ?? .baseUnits } catch {
        throw NodeError(.io("reading the symbol and decimals of token \(asset): \(error)"))
    }
}

extension Denomination {
    /// A typed amount, positive, or a usage error naming `option`.
    func positive(_ text: String, option: String = "--amount") throws(NodeError) -> Amount {
        try Denominations(nativeCoin: self).parse(text, of: .zero, option: option)
    }
}
