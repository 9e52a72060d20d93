import Foundation
import NodeKit
import Settlement
import Tender

/// A node holds coins in more than one domain: its home wallet (the domain `tender init`
/// chose) and one wallet per other domain it was paid in, all under the one key. A domain
/// other than home takes payments only once it is in the chain registry.
extension NodeHost {
    public func chainRegistry() throws(NodeError) -> ChainRegistry {
        try registryCache.registry(at: directory.chains)
    }

    /// Into a wallet's folder, or an issuer's (its amounts read in the chain's coin too), or
    /// a folder made for it (0700): `tender init` takes the vault listed there as its home.
    public func saveChainRegistry(_ registry: ChainRegistry) throws(NodeError) {
        try directory.create()
        try ChainRegistryFile.save(registry, to: directory.chains)
    }

    /// Every wallet of the node: home first, then the other domains' in file-name order.
    public func openWallets() throws(NodeError) -> NodeWallets {
        let home = try openWallet()
        return NodeWallets(
            home: home,
            others: try directory.domainWalletPaths().map { path throws(NodeError) in
                try openDomainWallet(at: path, home: home)
            })
    }

    /// The wallet at `path`, checked to be this node's (`home`'s address) for the domain the
    /// file is named after.
    public func openDomainWallet(at path: String, home: Wallet) throws(NodeError) -> Wallet {
        let wallet = try Wallet.open(at: path)
        guard wallet.address == home.address, directory.database(for: wallet.domain) == path
        else {
            throw NodeError(.io("\(path) is not this node's wallet for its domain"))
        }
        return wallet
    }

    /// The wallet for coins of `domain`: the home wallet when it is its domain, else the
    /// node's wallet for `domain`, made on first use (same address, the home wallet's
    /// trusted issuers and acceptance mode) when the chain registry lists the domain.
    public func openWallet(for domain: Domain) throws(NodeError) -> Wallet {
        let home = try openWallet()
        if domain == home.domain { return home }
        let path = directory.database(for: domain)
        if FileManager.default.fileExists(atPath: path) { return try Wallet.open(at: path) }
        guard try chainRegistry().entry(for: domain) != nil else {
            throw NodeError(
                .rejected(ProtocolError(.wrongDomain(expected: home.domain, actual: domain))),
                note: "to take payments on chain \(domain.chainID), vault \(domain.vault)",
                resolvedBy: .addChain(domain))
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory.domainWallets, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw NodeError(.io("cannot create \(directory.domainWallets): \(error)"))
        }
        // Made under a temporary name and moved in whole: a half-made wallet is never found.
        let making = path + ".making"
        try? FileManager.default.removeItem(atPath: making)
        let wallet = try Wallet.create(at: making, address: home.address, domain: domain)
        let now = clock.now()
        for issuer in try home.trustedIssuers() { try wallet.trust(issuer, now: now) }
        try wallet.setAcceptanceMode(try home.acceptanceMode())
        for (asset, floor) in try home.unrequestedFloors() {
            try wallet.setUnrequestedFloor(floor, of: asset)
        }
        try wallet.setRefusesUnlistedAssets(try home.refusesUnlistedAssets())
        // Closed first: the write-ahead log is copied in and removed, the file is whole.
        try wallet.close()
        guard rename(making, path) == 0 else {
            throw NodeError(.io("cannot move the new wallet into \(path)"))
        }
        return try Wallet.open(at: path)
    }

    /// The wallet a payment envelope is for (by its domain), made on first use.
    public func openWallet(forPayload bytes: [UInt8]) throws(NodeError) -> Wallet {
        let envelope: Envelope
        do { envelope = try Envelope.decode(bytes) } catch { throw NodeError(.rejected(error)) }
        return try openWallet(for: envelope.domain)
    }
}

extension NodeHost {
    /// How `wallet`'s amounts read: its chain's coin as the registry configures it (else as
    /// Tender knows the chain), its tokens as sync read them, the rest in base units.
    public func denominations(for wallet: Wallet) throws(NodeError) -> Denominations {
        Denominations(
            nativeCoin: try nativeCoin(for: wallet), tokens: try wallet.tokenDenominations())
    }

    /// How the coin of the wallet's chain reads (the registry only: no wallet read).
    public func nativeCoin(for wallet: Wallet) throws(NodeError) -> Denomination {
        try chainRegistry().nativeCoin(chainID: wallet.domain.chainID, preferring: wallet.domain)
    }

    /// `denominations(for:)` for what is only shown: base units when the registry or the
    /// wallet cannot be read, so a display never fails an answer (least of all one for a
    /// change already made).
    public func displayDenominations(for wallet: Wallet) -> Denominations {
        (try? denominations(for: wallet)) ?? Denominations()
    }
}
