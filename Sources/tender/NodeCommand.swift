import ArgumentParser
import AsyncHTTPClient
import ChainSync
import DevTools
import EVM
import Foundation
import Hummingbird
import Logging
import NodeAPI
import NodeHost
import NodeKit
import NodeLogging
import Posix
import ServiceLifecycle

struct NodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "node",
        abstract: "Run the node: the local API, the payment feed and the sync loop, until stopped.",
        discussion: """
            One long-running process: the HTTP API on 127.0.0.1:8737 (or --listen, or a Unix \
            socket), every /api/ call authenticated by the bearer token in the data \
            directory's api-token file (made 0600 on first start); the payee over Bluetooth \
            when an adapter is present and through a camera when [payee] camera names one; \
            payments announced as \
            Server-Sent Events as they land, however they arrive; the sync loop settling the \
            node's coins every [sync] interval. Settings: node.toml in the data directory \
            (or --config), each key overridable by TENDER_<SECTION>_<KEY>. SIGTERM or SIGINT \
            stops it gracefully (requests in flight finish, the sync pass in progress ends at \
            its next step). Under systemd (Type=notify) it reports READY=1 once it serves, \
            pings the watchdog, and STOPPING=1 on the way out. Docs/OPERATIONS.md describes \
            the API.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "The settings file (default: node.toml in the data directory).")
    var config: String?
    @Option(help: "Listen on HOST:PORT or unix:/PATH (overrides [api] listen).")
    var listen: String?
    @Flag(name: .customLong("no-sync"), help: "Do not run the sync loop.") var noSync = false

    func run() async throws {
        try await guarded {
            let host = global.host
            let path = config ?? host.directory.path + "/" + DataDirectory.Names.settings
            var settings = try NodeConfiguration.load(path, mustExist: config != nil)
            if let listen { settings.listen = try ListenAddress(listen) }
            if noSync { settings.syncEnabled = false }
            let tokenPath =
                settings.tokenFile.hasPrefix("/")
                ? settings.tokenFile : host.directory.path + "/" + settings.tokenFile
            let token = try APITokenFile.loadOrCreate(tokenPath)
            let logger = Self.logger(settings, secrets: [token])
            let wallets = OpenWallets(host: host)
            _ = try wallets.current()  // the node's wallets open, or a clear error now
            try await serve(settings, host: host, wallets: wallets, token: token, logger: logger)
        }
    }

    /// Every log line of the process (Hummingbird's too) goes through the redactor.
    static func logger(_ settings: NodeConfiguration, secrets: [String]) -> Logger {
        let redactor = Redactor(secrets: secrets)
        let level = Logger.Level(rawValue: settings.logLevel) ?? .info
        let format = NodeLogHandler.Format(rawValue: settings.logFormat) ?? .text
        LoggingSystem.bootstrap { label in
            NodeLogHandler(label: label, level: level, format: format, redactor: redactor)
        }
        return Logger(label: "tender.node")
    }

    private func serve(
        _ settings: NodeConfiguration, host: NodeHost, wallets: OpenWallets, token: String,
        logger: Logger
    ) async throws {
        let clock = host.clock
        let state = NodeState(startedAt: clock.now())
        let denominations: @Sendable (Wallet) -> Denominations = {
            host.displayDenominations(for: $0)
        }
        let feed = PaymentFeed(denominations: denominations)
        let metrics = NodeMetrics()
        let notifier = SystemdNotifier(environment: ProcessInfo.processInfo.environment)
        let current: @Sendable () throws(NodeError) -> [Wallet] = {
            () throws(NodeError) in try wallets.current()
        }
        var services: [any Service] = [
            ClosureService {
                await feed.run(wallets: current, every: .milliseconds(500)) { landed in
                    metrics.paymentsLanded(landed)
                }
            }
        ]
        var loop: SettlementLoop?
        var client: HTTPClient?
        // The key is unlocked only when the node needs it: to settle, to pay on its own, to
        // take payments through a camera (the Bluetooth payee unlocks it once it finds an
        // adapter, if not already).
        let needsKey = settings.syncEnabled || !settings.limits.isEmpty || settings.camera != nil
        let key = needsKey ? try host.keys.walletKey() : nil
        let offers = RequestOffers()
        let payees = PayeeContext(
            host: host, key: key, wallets: current, state: state, feed: feed, metrics: metrics,
            logger: logger)
        if settings.bluetooth != .off {
            await state.service(NodeBluetoothPayee.name, is: "looking for an adapter")
            services.append(
                NodeBluetoothPayee(
                    mode: settings.bluetooth, localName: settings.payeeName, context: payees,
                    offers: offers))
        }
        if let camera = settings.camera {
            await state.service(NodeCameraPayee.name, is: "opening \(camera)")
            services.append(
                NodeCameraPayee(device: camera, context: payees))
        }
        if settings.syncEnabled, let key {
            let rpcClient = EthereumRPC.makeHTTPClient()
            client = rpcClient
            let settlement = SettlementLoop(
                wallets: current,
                registry: { () throws(NodeError) in try host.chainRegistry() }, key: key,
                client: rpcClient, clock: clock,
                interval: .milliseconds(Int64(settings.syncInterval * 1000)),
                replaceAfter: settings.replaceAfter, homeEndpoint: NodeDefaults.rpc)
            loop = settlement
            await state.syncEnabled(true)
            services.append(
                ClosureService {
                    await settlement.run { outcome in
                        await state.syncPassed(
                            at: clock.now(), open: outcome.open, error: outcome.failure)
                        metrics.syncPassed(failed: outcome.failure != nil)
                        if let failure = outcome.failure {
                            logger.warning("sync: \(failure)")
                        }
                    } events: { event in
                        logger.info("sync: \(SyncLog.line(for: event))")
                    }
                })
        }
        if let interval = notifier.watchdogInterval {
            services.append(
                ClosureService {
                    while !Task.isCancelled {
                        try? notifier.notify("WATCHDOG=1")
                        try? await Task.sleep(for: interval)
                    }
                })
        }
        let context = NodeAPIContext(
            wallets: current, clock: clock,
            state: state, feed: feed, token: token,
            payer: settings.limits.isEmpty
                ? nil : key.map { AutomaticPayer(key: $0, limits: settings.limits) },
            metrics: metrics, offers: offers, denominations: denominations,
            charge: { (try? host.nativeCoin(for: $0)) ?? .baseUnits },
            syncNow: { [loop] in await loop?.passNow() })
        let address: BindAddress
        switch settings.listen {
        case .tcp(let name, let port): address = .hostname(name, port: port)
        case .unix(let path):
            // A socket left by a node that did not stop cleanly would make bind fail.
            if (try? DurableFile.fileKind(path)) == S_IFSOCK { unlink(path) }
            address = .unixDomainSocket(path: path)
        }
        let listen = settings.listen
        let application = Application(
            router: APIRouter.make(context),
            configuration: ApplicationConfiguration(address: address, serverName: "tender"),
            services: services,
            onServerRunning: { _ in
                if case .unix(let path) = listen { chmod(path, 0o660) }
                logger.info("tender node: serving the API on \(listen)")
                try? notifier.notify("READY=1\nSTATUS=serving on \(listen)")
            }, logger: logger)
        var failure: (any Error)?
        do { try await application.runService() } catch { failure = error }
        try? notifier.notify("STOPPING=1")
        try? await client?.shutdown()
        if let failure { throw NodeError(.io("the node stopped: \(failure)")) }
        logger.info("tender node: stopped")
    }
}

/// A service that runs `body` until the node shuts down (gracefully: its task is cancelled).
struct ClosureService: Service {
    let body: @Sendable () async -> Void

    init(_ body: @escaping @Sendable () async -> Void) { self.body = body }

    func run() async throws {
        try await cancelWhenGracefulShutdown { await body() }
    }
}
