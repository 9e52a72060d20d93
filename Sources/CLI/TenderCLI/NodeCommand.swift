import ArgumentParser
import NodeHost
import NodeKit
import NodeRuntime

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

            Examples:
              tender node                                   (API on 127.0.0.1:8737, /pos)
              tender node --listen unix:/run/tender/api.sock --config /etc/tender/node.toml
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
            // Before anything is written: a node needs its wallet, and runs once per folder.
            guard host.directory.exists else { throw host.directory.noWallet }
            let lock = try host.directory.lockForNode()
            defer { withExtendedLifetime(lock) {} }
            let path = config ?? host.directory.path + "/" + DataDirectory.Names.settings
            var settings = try NodeConfiguration.load(path, mustExist: config != nil)
            if let listen { settings.listen = try ListenAddress(listen) }
            if noSync { settings.syncEnabled = false }
            // Its sync loop settles the wallets: not beside a sync run by hand.
            let syncLock =
                settings.syncEnabled
                ? try host.directory.lockForSync(
                    busy:
                        "a `tender sync` run by hand is settling \(host.directory.path): let it end (stop a --watch with ^C), or start the node with --no-sync"
                ) : nil
            defer { withExtendedLifetime(syncLock) {} }
            let tokenPath =
                settings.tokenFile.hasPrefix("/")
                ? settings.tokenFile : host.directory.path + "/" + settings.tokenFile
            let token = try APITokenFile.loadOrCreate(tokenPath)
            let logger = NodeLog.bootstrap(settings, secrets: [token])
            let node = try Node(host: host, settings: settings, token: token, logger: logger)
            try await node.run()
        }
    }
}
