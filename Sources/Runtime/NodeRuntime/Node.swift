import AsyncHTTPClient
import CashuMint
import CashuStore
import CashuWallet
import DevTools
import EVM
import Foundation
import Hummingbird
import Logging
import NodeAPI
import NodeHost
import NodeKit
import Posix
import Secp256k1
import ServiceLifecycle
import Synchronization

/// The long-running node (`tender node`, Docs/OPERATIONS.md): the local API, the payment
/// feed, the payee services (Bluetooth, camera), payments on its own under spending limits
/// and the sync loop, as swift-service-lifecycle services that stop together, gracefully,
/// on SIGTERM or SIGINT.
public struct Node: Sendable {
    public let host: NodeHost
    public let settings: NodeConfiguration
    /// The bearer token every /api/ call must carry.
    public let token: String
    public let logger: Logger
    public let ports: NodePorts
    /// What the node's services say of themselves (`/api/status`).
    public let state: NodeState
    /// The request the node offers over the air: the API issues it, the Bluetooth payee
    /// advertises it.
    public let offered: OfferedRequest
    private let wallets: OpenWallets

    /// Opens the node's wallets (a clear error now rather than at the first request).
    public init(
        host: NodeHost, settings: NodeConfiguration, token: String, logger: Logger,
        ports: NodePorts = .live
    ) throws(NodeError) {
        self.host = host
        self.settings = settings
        self.token = token
        self.logger = logger
        self.ports = ports
        self.state = NodeState(startedAt: host.clock.now())
        self.offered = OfferedRequest(clock: host.clock)
        self.wallets = OpenWallets(host: host)
        _ = try wallets.current()
    }

    /// Serves until stopped (SIGTERM, SIGINT, or the task cancelled).
    public func run() async throws {
        let host = host
        // One descriptor per API connection: the connections stay under what the process may
        // open, so a flood of idle ones is refused, never the node's own files and sockets.
        let openFiles = OpenFileLimit.raise()
        let limits = ConnectionLimits(descriptors: openFiles)
        let denominations: @Sendable (Wallet) -> Denominations = {
            host.displayDenominations(for: $0)
        }
        let metrics = NodeMetrics()
        // The key is unlocked only when the node needs it: to settle, to pay on its own, to
        // take payments through a camera (the Bluetooth payee unlocks it once it finds an
        // adapter, if not already).
        let needsKey = settings.syncEnabled || !settings.limits.isEmpty || settings.camera != nil
        let key = needsKey ? try host.keys.walletKey() : nil
        // The Cashu wallet, opened once for the sync and the payees when the key is unlocked.
        let cashuWallet = key.flatMap { (try? host.openCashu(walletKey: $0)) ?? nil }
        let cashu = cashuPayee(opened: cashuWallet, key: key, metrics: metrics)
        // The feed reads the Cashu store without a key: it only reads what landed.
        let feed = PaymentFeed(
            denominations: denominations,
            cashu: cashu == nil
                ? nil : cashuWallet?.store ?? (try? CashuDatabase(path: host.directory.cashu)))
        let notifier = SystemdNotifier(environment: ProcessInfo.processInfo.environment)
        let current: @Sendable () throws(NodeError) -> NodeWallets = {
            [wallets] () throws(NodeError) in
            try wallets.current()
        }
        var services: [any Service] = [
            NodeTask {
                await feed.run(wallets: current, every: .milliseconds(500)) { landed in
                    metrics.paymentsLanded(landed)
                }
            }
        ]
        services += await payeeServices(
            PayeeContext(
                host: host, key: key, wallets: current, state: state, feed: feed,
                metrics: metrics, logger: logger, cashu: cashu))
        let settlement = await settlementService(
            key: key, cashu: cashuWallet, wallets: current, metrics: metrics)
        services += settlement.map { [$0.service] } ?? []
        if let watchdog = Self.watchdog(notifier) { services.append(watchdog) }
        let context = NodeAPIContext(
            wallets: current, clock: host.clock, state: state, feed: feed, token: token,
            payer: settings.limits.isEmpty
                ? nil : key.map { AutomaticPayer(key: $0, limits: settings.limits) },
            metrics: metrics, offers: offered, denominations: denominations,
            charge: { (try? host.nativeCoin(for: $0)) ?? .baseUnits },
            hosts: Self.hosts(settings), limits: limits, cashu: cashu,
            syncNow: { [loop = settlement?.loop] in await loop?.passNow() })
        let (listen, logger) = (settings.listen, logger)
        if openFiles < 4 * limits.maxConnections {
            logger.warning(
                "only \(openFiles) open files allowed (LimitNOFILE): at most \(limits.maxConnections) API connections"
            )
        }
        let application = Application(
            router: APIRouter.make(context), server: limits.server(counting: ConnectionCount()),
            configuration: ApplicationConfiguration(
                address: Self.bindAddress(listen), serverName: "tender"),
            services: services,
            onServerRunning: { _ in
                if case .unix(let path) = listen { chmod(path, 0o660) }
                let sync =
                    settings.syncEnabled
                    ? "sync every \(settings.syncInterval.formatted()) s, redeeming \(settings.redeem.rawValue)"
                    : "sync off"
                logger.info("tender node: serving the API on \(listen); \(sync)")
                if !listen.isLocal {
                    // Plain HTTP: the bearer token and every answer cross the network in clear.
                    logger.warning(
                        "the API listens on \(listen), beyond this machine, in plain HTTP: anyone on the network sees its token; listen on 127.0.0.1 or a unix: socket, and put TLS in front for other machines"
                    )
                }
                try? notifier.notify("READY=1\nSTATUS=serving on \(listen)")
            }, logger: logger)
        var failure: (any Error)?
        do { try await application.runService() } catch { failure = error }
        try? notifier.notify("STOPPING=1")
        for client in settlement?.clients ?? [] { try? await client.shutdown() }
        if let failure { throw NodeError(.io("the node stopped: \(failure)")) }
        logger.info("tender node: stopped")
    }

    /// Where the camera and the API put Cashu tokens, as `[payee] cashu` allows (nil: off):
    /// the wallet `opened` at start, or one opened when first needed (without the wallet key,
    /// once the lock key's public half is recorded: a Cashu command on the host records it,
    /// while the node runs).
    private func cashuPayee(
        opened: CashuWallet?, key: PrivateKey?, metrics: NodeMetrics
    ) -> CashuPayee? {
        guard settings.cashu != .off else { return nil }
        let host = host
        return CashuPayee(
            requireLock: settings.cashu == .locked, clock: host.clock, metrics: metrics
        ) { () throws(NodeError) in
            if let opened { return opened }
            return try host.openCashu(walletKey: key)
        }
    }

    /// The payee services the settings turn on (Bluetooth, camera), each announced as starting.
    private func payeeServices(_ payees: PayeeContext) async -> [any Service] {
        var services: [any Service] = []
        if settings.bluetooth != .off {
            await state.service(BluetoothPayeeService.name, is: .starting("looking for an adapter"))
            services.append(
                BluetoothPayeeService(
                    mode: settings.bluetooth, localName: settings.payeeName, context: payees,
                    offered: offered, open: ports.nearbyPayee))
        }
        if let camera = settings.camera {
            await state.service(CameraPayeeService.name, is: .starting("opening \(camera)"))
            services.append(CameraPayeeService(device: camera, context: payees, open: ports.camera))
        }
        return services
    }

    /// The sync loop as a service, when the settings turn it on: its passes through the
    /// settlement port (or the real chains, with the HTTP client to shut down after), each
    /// reported to the status, the metrics and the log.
    private func settlementService(
        key: PrivateKey?, cashu: CashuWallet?,
        wallets current: @escaping @Sendable () throws(NodeError) -> NodeWallets,
        metrics: NodeMetrics
    ) async -> (service: any Service, loop: SettlementLoop, clients: [HTTPClient])? {
        guard settings.syncEnabled, let key else { return nil }
        let (host, state, logger) = (host, state, logger)
        let clock = host.clock
        var pass: SettlementLoop.Pass
        var clients: [HTTPClient] = []
        if let fake = ports.settlement {
            pass = fake(key)
        } else {
            let rpcClient = EthereumRPC.makeHTTPClient()
            clients.append(rpcClient)
            let chains = ChainPass(
                wallets: current,
                registry: { () throws(NodeError) in try host.chainRegistry() }, key: key,
                client: rpcClient, clock: clock, replaceAfter: settings.replaceAfter,
                homeEndpoint: NodeDefaults.rpc, redeem: settings.redeem)
            pass = { await chains(passesBefore: $0, events: $1) }
        }
        if let cashu {
            let mintClient = MintClient.makeHTTPClient()
            clients.append(mintClient)
            let cashuPass = CashuPass(
                wallet: cashu, directory: host.directory, client: mintClient, clock: clock)
            pass = { [pass] before, events in
                let chains = await pass(before, events)
                let (settled, failures) = await cashuPass()
                for report in settled where !report.isEmpty {
                    metrics.cashuSettled(report)
                    if report.failure == nil {
                        logger.info("sync: Cashu \(report.summary)")
                    }
                }
                return SettlementLoop.Outcome(
                    open: chains.open, failures: chains.failures + failures)
            }
        }
        let loop = SettlementLoop(
            interval: .milliseconds(Int64(settings.syncInterval * 1000)), pass: pass)
        await state.syncEnabled(true)
        // Coins left waiting for cheaper gas: this pass's so far, and the last pass's (said
        // in the log when it changes, not at every pass).
        let dust = Mutex((pass: 0, last: 0))
        let service = NodeTask {
            await loop.run { outcome in
                let waiting = dust.withLock { counts in
                    defer { counts = (0, counts.pass) }
                    return counts.pass
                }
                await state.syncPassed(
                    at: clock.now(), open: outcome.open, error: outcome.failure,
                    waitingForGas: waiting)
                metrics.syncPassed(failed: outcome.failure != nil)
                if let failure = outcome.failure { logger.warning("sync: \(failure)") }
            } events: { event in
                let line = "sync: \(SettlementEventText.line(for: event))"
                switch event {
                case .reverted:
                    metrics.redeemReverted()
                    logger.warning("\(line)")
                case .payoutDeferred:
                    metrics.payoutDeferred()
                    logger.warning("\(line)")
                case .heldBack, .fraudProofRefused, .stillOwed: logger.warning("\(line)")
                case .dust(let coins, _, _, _):
                    let changed = dust.withLock { counts in
                        counts.pass += coins
                        return counts.pass != counts.last
                    }
                    if changed { logger.info("\(line)") } else { logger.debug("\(line)") }
                default: logger.info("\(line)")
                }
            }
        }
        return (service, loop, clients)
    }

    /// The names the API answers to: any on a Unix socket, else the machine's and the listed
    /// ones (besides IP addresses and localhost).
    static func hosts(_ settings: NodeConfiguration) -> HostAllowList {
        if case .unix = settings.listen { return .anyName }
        var names = settings.hosts
        if case .tcp(let host, _) = settings.listen { names.append(host) }
        return .forMachine(hostname, adding: names)
    }

    /// This machine's name (its `.local` name too is one the API answers to).
    static var hostname: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(
            decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }

    /// systemd's watchdog, kept fed, when the unit asks for it (WatchdogSec=).
    private static func watchdog(_ notifier: SystemdNotifier) -> (any Service)? {
        guard let interval = notifier.watchdogInterval else { return nil }
        return NodeTask {
            while !Task.isCancelled {
                try? notifier.notify("WATCHDOG=1")
                try? await Task.sleep(for: interval)
            }
        }
    }

    private static func bindAddress(_ listen: ListenAddress) -> BindAddress {
        switch listen {
        case .tcp(let name, let port): return .hostname(name, port: port)
        case .unix(let path):
            // A socket left by a node that did not stop cleanly would make bind fail.
            if (try? DurableFile.fileKind(path)) == S_IFSOCK { unlink(path) }
            return .unixDomainSocket(path: path)
        }
    }
}

/// A service that runs `body` until the node shuts down (gracefully: its task is cancelled).
struct NodeTask: Service {
    let body: @Sendable () async -> Void

    init(_ body: @escaping @Sendable () async -> Void) { self.body = body }

    func run() async {
        await cancelWhenGracefulShutdown { await body() }
    }
}
