import Codecs
import EVM
import NodeHost
import NodeKit
import Secp256k1
import Tender

/// A vault's issuer and readers on one chain, through one endpoint: the vault deployed,
/// collateral deposited and locked, what it holds read, and what an issuer must hold before
/// its notes are accepted. What the vault and issuer commands do, without their words; the
/// chain's failures come out as `NodeError`s.
public struct VaultDesk: Sendable {
    /// The chain the endpoint serves (asked first).
    public let chainID: UInt64
    public var endpoint: String { rpc.endpoint }
    let rpc: EthereumRPC
    let host: NodeHost

    /// Runs `body` with a desk on `endpoint`'s chain, asked first for its id: an endpoint
    /// that does not answer is said before anything else happens.
    public static func connect<T>(
        to endpoint: String, host: NodeHost, _ body: (VaultDesk) async throws -> T
    ) async throws -> T {
        let client = EthereumRPC.makeHTTPClient()
        let rpc = EthereumRPC(endpoint: endpoint, client: client)
        do {
            let chainID = try await servedChainID(at: rpc)
            let result = try await body(VaultDesk(chainID: chainID, rpc: rpc, host: host))
            try? await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw nodeFailure(error)
        }
    }

    /// Runs `body`, which sends a transaction from `sender`: the node's refusal for want of
    /// gas is said as `noGas`, naming the address, the chain, what it holds and what the
    /// transaction needed (0 when the node gave no figure).
    func sent<T>(by sender: Address, _ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as EVMError where error.cannotAffordGas {
            let held = (try? await rpc.balance(of: sender, at: .pending)) ?? 0
            throw NodeError(
                .noGas(
                    account: sender, chainID: chainID,
                    needed: error.gasWanted.flatMap { Amount(exactly: $0) } ?? 0,
                    held: Amount(exactly: held) ?? .max),
                note: "nothing was sent")
        }
    }

    /// A vault deployed, and by what.
    public struct Deployment: Sendable {
        public let vault: Address
        public let deployer: Address
        public let transaction: Bytes32
        public let block: UInt64
        public let gasUsed: UInt64
        /// The compiler that made the embedded code.
        public let compiler: String
    }

    /// Deploys the embedded vault (Contracts/Vault.vy), signed and paid by `signer`.
    public func deploy(signer: PrivateKey) async throws -> Deployment {
        let deployer = VaultOperator(key: signer, rpc: rpc, chainID: chainID)
        let (vault, receipt) = try await sent(by: deployer.address) { try await deployer.deploy() }
        return Deployment(
            vault: vault, deployer: deployer.address, transaction: receipt.transactionHash,
            block: receipt.blockNumber, gasUsed: receipt.gasUsed,
            compiler: VaultInitCode.compiler)
    }

    /// What a vault holds at the head: each issuer's collateral per asset, and its lock.
    public struct Holdings: Sendable {
        public struct Row: Sendable {
            public let issuer: Address
            public let asset: Address
            public let amount: ChainWord
        }

        public let vault: Address
        public let block: UInt64
        /// By issuer, then asset.
        public let rows: [Row]
        let locks: [Address: ChainWord]

        /// `issuer`'s lock (zero: never locked).
        public func lockedUntil(_ issuer: Address) -> ChainWord { locks[issuer] ?? .zero }
    }

    public func holdings(of vault: Address) async throws -> Holdings {
        let read = try await rpc.vaultCollateral(vault)
        return Holdings(
            vault: vault, block: read.block,
            rows: read.entries.sorted { ($0.issuer, $0.asset) < ($1.issuer, $1.asset) }.map {
                Holdings.Row(issuer: $0.issuer, asset: $0.asset, amount: ChainWord($0.amount))
            },
            locks: read.lockedUntil.mapValues(ChainWord.init))
    }

    /// Refuses an address that holds no Tender vault for this chain: a mistyped vault would
    /// swallow a deposit, and notes signed for it are worth nothing.
    public func requireVault(at vault: Address) async throws {
        let identity = try await rpc.vaultIdentity(of: Domain(chainID: chainID, vault: vault))
        guard identity == .tenderVault else {
            throw NodeError(
                .usage(
                    "there is \(identity) at \(vault) on chain \(chainID) (\(RedactedURL.text(endpoint)))"
                ), resolvedBy: .deployVault)
        }
    }

    /// A deposit made, and where the issuer stands after it.
    public struct Deposit: Sendable {
        public let issuer: Address
        public let collateral: ChainWord
        public let lockedUntil: ChainWord
        public let transactions: [Bytes32]
        /// The lock asked for was not sent: the collateral is locked this long already.
        public let alreadyLockedUntil: ChainWord?
    }

    /// Deposits `amount` of `asset` from `key`'s account into `vault` (a token approved for
    /// the vault first), then, with `lockUntil`, extends the account's lock to then (a lock
    /// only ever lengthens: one that lasts already is left).
    public func deposit(
        _ amount: Amount, of asset: Address, into vault: Address, key: PrivateKey,
        lockUntil: UInt64?
    ) async throws -> Deposit {
        try await requireVault(at: vault)
        let issuer = VaultOperator(key: key, rpc: rpc, chainID: chainID)
        var transactions = [
            try await sent(by: issuer.address) {
                try await issuer.deposit(Wei(amount), of: asset, into: vault).transactionHash
            }
        ]
        var already: ChainWord?
        if let lockUntil {
            let current = try await lockedUntil(issuer.address, in: vault)
            if current.isAtLeast(lockUntil) {
                already = current
            } else {
                transactions.append(
                    try await sent(by: issuer.address) {
                        try await issuer.lock(until: lockUntil, in: vault).transactionHash
                    })
            }
        }
        let after = try await holdings(of: vault)
        let total = after.rows.first { $0.issuer == issuer.address && $0.asset == asset }?.amount
        return Deposit(
            issuer: issuer.address, collateral: total ?? .zero,
            lockedUntil: after.lockedUntil(issuer.address), transactions: transactions,
            alreadyLockedUntil: already)
    }

    /// Extends `key`'s lock in `vault` to `until`, without a deposit: refused (nothing sent)
    /// when the lock already lasts that long. Returns the transaction.
    public func lock(
        until: UInt64, in vault: Address, key: PrivateKey
    ) async throws -> Bytes32 {
        try await requireVault(at: vault)
        let issuer = VaultOperator(key: key, rpc: rpc, chainID: chainID)
        let current = try await lockedUntil(issuer.address, in: vault)
        guard !current.isAtLeast(until) else {
            throw NodeError(
                .usage(
                    "the collateral of \(issuer.address) is \(current.lockText) already: a lock is only ever extended"
                ))
        }
        return try await sent(by: issuer.address) {
            try await issuer.lock(until: until, in: vault).transactionHash
        }
    }

    /// Pays `amount` of `asset` of `key`'s collateral back from `vault`, once its lock has
    /// ended (said, with its end, before anything is sent). Returns the transaction and the
    /// collateral left.
    public func withdraw(
        _ amount: Amount, of asset: Address, from vault: Address, key: PrivateKey, now: UInt64,
        units: Denomination
    ) async throws -> (transaction: Bytes32, left: ChainWord) {
        try await requireVault(at: vault)
        let issuer = VaultOperator(key: key, rpc: rpc, chainID: chainID)
        let lock = try await lockedUntil(issuer.address, in: vault)
        guard !lock.isAtLeast(now + 1) else {
            throw NodeError(
                .usage(
                    "the collateral of \(issuer.address) is \(lock.lockText): it can be withdrawn once the lock ends"
                ))
        }
        let held = ChainWord(
            try await rpc.vaultUInt(
                vault, VaultCalls.collateral(issuer: issuer.address, asset: asset)))
        guard held.isAtLeast(amount) else {
            throw NodeError(
                .usage(
                    "\(issuer.address) has \(held.formatted(units)) of asset \(asset) in vault \(vault), less than \(units.format(amount))"
                ))
        }
        let receipt = try await sent(by: issuer.address) {
            try await issuer.withdraw(Wei(amount), of: asset, from: vault)
        }
        let left = ChainWord(
            try await rpc.vaultUInt(
                vault, VaultCalls.collateral(issuer: issuer.address, asset: asset)))
        return (receipt.transactionHash, left)
    }

    /// Before notes are issued: `vault` holds at least `total` of `asset` for `issuer`,
    /// locked past the notes' `expiry` (what an open-mode payee checks against its snapshot).
    /// Amounts are said in `units` (the asset's, as `denomination(of:)` reads them).
    /// `outstanding`: what the issuer signed before and has not expired, counted too.
    public func requireCollateral(
        issuer: Address, asset: Address, total: Amount, outstanding: Amount = 0, expiry: UInt64,
        vault: Address, units: Denomination
    ) async throws {
        try await requireVault(at: vault)
        let held = ChainWord(
            try await rpc.vaultUInt(vault, VaultCalls.collateral(issuer: issuer, asset: asset)))
        let (needed, overflow) = total.addingReportingOverflow(outstanding)
        guard !overflow, held.isAtLeast(needed) else {
            throw NodeError(
                .rejected(
                    ProtocolError(
                        .beyondCollateral(
                            issuer: issuer, asset: asset, collateral: held.amount ?? .max,
                            outstanding: outstanding, requested: total))),
                resolvedBy: .depositCollateral)
        }
        let until = try await lockedUntil(issuer, in: vault)
        // Refused as a payee would refuse the notes (exit 65, as too little collateral is).
        guard until.isAtLeast(expiry) else {
            throw NodeError(
                .rejected(
                    ProtocolError(
                        .collateralUnlocked(
                            issuer: issuer, lockedUntil: UInt64(exactly: until.word) ?? 0,
                            expiry: expiry))), resolvedBy: .lockCollateral)
        }
    }

    /// The vault's `lockedUntil(issuer)` at the head.
    public func lockedUntil(_ issuer: Address, in vault: Address) async throws -> ChainWord {
        ChainWord(try await rpc.vaultUInt(vault, VaultCalls.lockedUntil(issuer: issuer)))
    }

    /// How `asset`'s amounts read here: the chain's coin as the chain registry names it, a
    /// token as its contract says (base units when it says nothing).
    public func denomination(of asset: Address) async throws -> Denomination {
        if asset == .zero { return try host.chainRegistry().nativeCoin(chainID: chainID) }
        do { return try await rpc.tokenDenomination(asset) ?? .baseUnits } catch {
            throw NodeError(.io("reading the symbol and decimals of token \(asset): \(error)"))
        }
    }

    /// `denomination` of each asset among `assets`, read once per asset.
    public func denominations(
        of assets: some Sequence<Address>
    ) async throws -> [Address: Denomination] {
        var read: [Address: Denomination] = [:]
        for asset in Set(assets) { read[asset] = try await denomination(of: asset) }
        return read
    }

    /// How an issuer's amounts read with no chain at hand (an issuer folder may have no
    /// wallet): the chain's coin as the registry names it, a token as this folder's wallet
    /// read it at sync, else base units.
    public static func denomination(
        of asset: Address, chainID: UInt64, host: NodeHost
    ) throws -> Denomination {
        if asset == .zero { return try host.chainRegistry().nativeCoin(chainID: chainID) }
        guard host.directory.exists, let wallet = try? host.openWallet(),
            wallet.domain.chainID == chainID
        else { return .baseUnits }
        return (try? wallet.tokenDenominations())?[asset] ?? .baseUnits
    }
}
