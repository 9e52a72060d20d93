/// How a front end writes what an error carries: amounts in its asset's units, and the step
/// that resolves a situation in its own terms (a CLI command, an API route). Errors carry the
/// facts; each front end has one wording; `PlainWording` is what an error says alone.
public protocol ErrorWording {
    func amount(_ amount: Amount, of asset: Address) -> String
    func step(_ step: ResolvingStep) -> String
}

/// A step that resolves a situation an error describes.
public enum ResolvingStep: Sendable, Equatable {
    /// Settle the node's coins on chain.
    case settle
    /// List the node's payments (to find one left prepared).
    case listPayments
    /// Make the wallet.
    case initialise
    /// Make the issuer's key.
    case initialiseIssuer
    /// Add `domain` (a vault on a chain) to the chain registry, with an endpoint.
    case addChain(Domain)
    /// See the chain registry's endpoints.
    case listChains
    /// Start the payee's Bluetooth service.
    case startNearbyPayee
    /// Stop what holds the wallet open (the node, another command).
    case stopWalletUsers
    /// Give the node spending limits (what it may pay on its own).
    case setSpendingLimits
    /// Deploy a vault (or name the one deployed).
    case deployVault
    /// Deposit the issuer's collateral in the vault.
    case depositCollateral
    /// Lock the issuer's collateral past its notes' expiry.
    case lockCollateral
    /// Check that the chain's node runs, and the endpoint given for it.
    case checkChainEndpoint
    /// Restore into a new or empty folder, or replace this one (kept aside).
    case restoreElsewhereOrReplace
    /// Name the domain (chain and vault) a payment is made from.
    case nameDomain
    /// Trust this issuer (or take issuers by their collateral).
    case trustIssuer(Address)
    /// Check the vault address given (the issuer's deployment printed it).
    case checkVault
    /// Check the chain id given, or give an endpoint of that chain.
    case checkChainID
    /// Name the chain's own coin (its symbol and decimals) in the chain registry.
    case nameNativeCoin
    /// Add a Cashu mint (its keys are fetched, so it needs the mint online).
    case addMint(String)
}

/// Base units, and the steps named for what they do.
public struct PlainWording: ErrorWording {
    public init() {}

    public func amount(_ amount: Amount, of asset: Address) -> String { String(amount) }

    public func step(_ step: ResolvingStep) -> String {
        switch step {
        case .settle: "a sync"
        case .addMint(let url): "adding mint \(url) while online"
        case .listPayments: "the payments list"
        case .initialise: "initialising the wallet"
        case .initialiseIssuer: "making the issuer's key"
        case .addChain(let domain):
            "adding chain \(domain.chainID), vault \(domain.vault) to the chain registry"
        case .listChains: "the chain registry"
        case .startNearbyPayee: "is the payee's Bluetooth service running, its adapter in range?"
        case .stopWalletUsers: "stop what holds it open"
        case .setSpendingLimits: "[[limits]] in node.toml, Docs/OPERATIONS.md"
        case .deployVault: "deploy one, or name the vault deployed"
        case .depositCollateral: "deposit collateral first"
        case .lockCollateral: "lock the collateral past them first"
        case .checkChainEndpoint: "is the chain's node running, at that endpoint?"
        case .restoreElsewhereOrReplace:
            "restore into a new or empty folder, or replace it (its contents are kept aside)"
        case .nameDomain: "name the chain and vault to pay from"
        case .trustIssuer: "trust the issuer, or take issuers by their collateral"
        case .checkVault: "check the vault address: the issuer's deployment printed it"
        case .checkChainID: "check the chain id, or the endpoint"
        case .nameNativeCoin: "name the chain's coin in the chain registry, or give base units"
        }
    }
}
