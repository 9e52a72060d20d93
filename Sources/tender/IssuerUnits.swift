import EVM
import NodeHost
import NodeKit
import Tender

/// How an issuer's amounts read (an issuer folder may have no wallet): the chain's coin as
/// this data directory's chain registry names it, else as Tender knows the chain; a token as
/// its contract says when a chain is at hand, else as this folder's wallet read it at sync,
/// else base units.
func issuerDenomination(
    of asset: Address, chainID: UInt64, host: NodeHost, rpc: EthereumRPC? = nil
) async throws -> Denomination {
    if asset == .zero {
        return try host.chainRegistry().nativeCoin(chainID: chainID)
            ?? NativeCoins.denomination(chainID: chainID) ?? .baseUnits
    }
    guard let rpc else {
        guard host.directory.exists, let wallet = try? host.openWallet(),
            wallet.domain.chainID == chainID
        else { return .baseUnits }
        return (try? wallet.tokenDenominations())?[asset] ?? .baseUnits
    }
    do { return try await rpc.tokenDenomination(asset) ?? .baseUnits } catch {
        throw NodeError(.io("reading the symbol and decimals of token \(asset): \(error)"))
    }
}

/// An amount read from the chain (a 256-bit word) as people read it; past what an amount
/// holds, the word itself.
func formatChainAmount(_ wei: Wei, _ units: Denomination) -> String {
    Amount(exactly: wei).map(units.format) ?? "\(wei) base units"
}

extension Denomination {
    /// A typed amount, positive, or a usage error naming `option`.
    func positive(_ text: String, option: String = "--amount") throws(NodeError) -> Amount {
        try Denominations(nativeCoin: self).parse(text, of: .zero, option: option)
    }
}
