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

/// `issuerDenomination` of each asset among `assets`, read once per asset.
func issuerDenominations(
    of assets: some Sequence<Address>, chainID: UInt64, host: NodeHost, rpc: EthereumRPC
) async throws -> [Address: Denomination] {
    var read: [Address: Denomination] = [:]
    for asset in Set(assets) {
        read[asset] = try await issuerDenomination(
            of: asset, chainID: chainID, host: host, rpc: rpc)
    }
    return read
}

/// An amount read from the chain (a 256-bit word) as people read it; past what an amount
/// holds, the word itself.
func formatChainAmount(_ wei: Wei, _ units: Denomination) -> String {
    Amount(exactly: wei).map(units.format) ?? "\(wei) base units"
}
