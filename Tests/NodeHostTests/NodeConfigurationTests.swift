import Foundation
import NodeHost
import NodeKit
import Posix
import Settlement
import Tender
import TenderTestSupport
import Testing

/// node.toml: defaults, every key, the environment over the file, and a clear error for each
/// kind of mistake (a typo must never leave a default silently in place).
@Suite struct NodeConfigurationTests {
    @Test func anEmptyFileIsTheDefaults() throws {
        let settings = try NodeConfiguration.parse("", name: "node.toml")
        #expect(settings == NodeConfiguration())
        #expect(settings.listen == .tcp(host: "127.0.0.1", port: 8737))
    }

    @Test func everyKeyIsRead() throws {
        let settings = try NodeConfiguration.parse(
            """
            [api]
            listen = "unix:/run/tender/api.sock"
            token-file = "/etc/tender/token"
            hosts = ["till.example", "stall-2"]
            [sync]
            enabled = false
            interval = 5
            replace-after = 60
            redeem = "unpayable"
            [payee]
            bluetooth = "off"
            name = "Ana's stall"
            camera = "/dev/video2"
            [log]
            level = "debug"
            format = "json"
            """, name: "node.toml")
        #expect(settings.listen == .unix(path: "/run/tender/api.sock"))
        #expect(settings.tokenFile == "/etc/tender/token")
        #expect(settings.hosts == ["till.example", "stall-2"])
        #expect(!settings.syncEnabled && settings.syncInterval == 5 && settings.replaceAfter == 60)
        #expect(settings.redeem == .unpayable)
        #expect(settings.bluetooth == .off && settings.payeeName == "Ana's stall")
        #expect(settings.camera == "/dev/video2")
        #expect(settings.logLevel == .debug && settings.logFormat == .json)
    }

    @Test func spendingLimitsAreRead() throws {
        let bob = "0x1111111111111111111111111111111111111111"
        let settings = try NodeConfiguration.parse(
            """
            [[limits]]
            payee = "any"
            amount = "5000"
            period = "24h"
            [[limits]]
            payee = "\(bob)"
            asset = "0x2222222222222222222222222222222222222222"
            amount = 250
            period = "1w"
            [[limits]]
            payee = "any"
            amount = "1"
            period = "90"
            """, name: "node.toml")
        #expect(
            settings.limits == [
                SpendingLimit(payee: nil, asset: .zero, amount: 5000, period: 86_400),
                SpendingLimit(
                    payee: try Address(bob),
                    asset: try Address("0x2222222222222222222222222222222222222222"),
                    amount: 250, period: 604_800),
                SpendingLimit(payee: nil, asset: .zero, amount: 1, period: 90),
            ])
        #expect(NodeConfiguration().limits.isEmpty)
    }

    /// Sync times as a limit's period is written ("30s", "5m"), or plain seconds.
    @Test(arguments: [
        ("interval = \"30s\"", 30.0), ("interval = \"500ms\"", 0.5), ("interval = \"5m\"", 300),
        ("interval = \"1h\"", 3600), ("interval = 2.5", 2.5), ("interval = 7", 7),
        ("interval = \"1d\"", 86_400),
    ])
    func syncTimesTakeTheirUnit(line: String, seconds: Double) throws {
        let settings = try NodeConfiguration.parse("[sync]\n\(line)\n", name: "node.toml")
        #expect(settings.syncInterval == seconds)
        let replace = try NodeConfiguration.parse(
            "[sync]\nreplace-after = \"3m\"\n", name: "node.toml",
            environment: ["TENDER_SYNC_INTERVAL": "45s"])
        #expect(replace.replaceAfter == 180 && replace.syncInterval == 45)
    }

    @Test func theEnvironmentOverridesTheFile() throws {
        let settings = try NodeConfiguration.parse(
            "[sync]\ninterval = 5\n", name: "node.toml",
            environment: [
                "TENDER_SYNC_INTERVAL": "0.5", "TENDER_API_LISTEN": "[::1]:9000",
                "TENDER_SYNC_ENABLED": "no", "TENDER_SYNC_REPLACE_AFTER": "30",
                "TENDER_PAYEE_CAMERA": "/dev/video1",
            ])
        #expect(settings.camera == "/dev/video1")
        // Empty switches a configured camera off.
        let off = try NodeConfiguration.parse(
            "[payee]\ncamera = \"/dev/video0\"\n", name: "node.toml",
            environment: ["TENDER_PAYEE_CAMERA": ""])
        #expect(off.camera == nil)
        #expect(settings.syncInterval == 0.5 && !settings.syncEnabled)
        #expect(settings.listen == .tcp(host: "::1", port: 9000))
        #expect(settings.listen.description == "[::1]:9000")
        #expect(settings.replaceAfter == 30)
    }

    @Test(arguments: [
        (
            "[sync]\nintervall = 5",
            "unknown key sync.intervall (known in [sync]: enabled, interval, replace-after, redeem)"
        ),
        ("[chain]\nid = 1", "unknown section [chain]"),
        ("sync = 3", "sync must be a section"),
        (
            "[sync]\ninterval = \"fast\"",
            "sync.interval must be seconds or a duration (30s, 5m, 1h)"
        ),
        ("[sync]\ninterval = \"30 s\"", "sync.interval must be seconds or a duration"),
        ("[sync]\ninterval = \"-5s\"", "sync.interval must be seconds or a duration"),
        ("[sync]\ninterval = \"2d\"", "sync.interval must be 0.1 s … 1 d"),
        ("[sync]\nreplace-after = \"1.5s\"", "sync.replace-after must be whole seconds"),
        ("[sync]\ninterval = 0", "sync.interval must be 0.1 s … 1 d (0.1…86400 seconds)"),
        ("[sync]\nenabled = \"yes\"", "sync.enabled must be true or false"),
        ("[api]\nlisten = \"localhost\"", "expected HOST:PORT"),
        ("[api]\nlisten = \"127.0.0.1:70000\"", "port 1…65535"),
        ("[api]\nlisten = \"unix:relative.sock\"", "absolute path"),
        ("[payee]\nbluetooth = \"maybe\"", "must be auto, on or off"),
        ("[payee]\ncamera = \"video0\"", "payee.camera must be a device path such as /dev/video0"),
        ("[payee]\ncamera = 0", "payee.camera must be a string"),
        ("[log]\nlevel = \"loud\"", "must be one of trace"),
        ("[sync", "is not TOML"),
        ("[limits]\npayee = \"any\"", "limits must be tables, each [[limits]]"),
        ("[[limits]]\namount = \"5\"\nperiod = \"1d\"", "limits[0] needs payee"),
        (
            "[[limits]]\npayee = \"any\"\namount = \"5\"\nperiod = \"1d\"\ncap = 3",
            "limits[0]: unknown key cap"
        ),
        ("[[limits]]\npayee = \"0x12\"\namount = \"5\"\nperiod = \"1d\"", "limits[0].payee"),
        ("[[limits]]\npayee = \"any\"\namount = \"2.5\"\nperiod = \"1d\"", "positive integer"),
        ("[[limits]]\npayee = \"any\"\namount = 5\nperiod = \"soon\"", "such as 90s"),
        ("[[limits]]\npayee = \"any\"\namount = 5\nperiod = \"367d\"", "at most 366d"),
        ("[[limits]]\npayee = \"any\"\namount = 5", "limits[0] needs period"),
        ("[api]\nhosts = [\"evil example\"]", "api.hosts[0] must be a host name"),
        ("[api]\nhosts = \"till.example\"", "api.hosts"),
        ("[sync]\ninterval = 1e300", "sync.interval must be 0.1 s … 1 d (0.1…86400 seconds)"),
        ("[sync]\ninterval = nan", "sync.interval must be 0.1 s … 1 d (0.1…86400 seconds)"),
        ("[sync]\nreplace-after = 1e-300", "sync.replace-after must be whole seconds"),
        ("[sync]\nreplace-after = inf", "sync.replace-after must be whole seconds"),
        ("[sync]\nredeem = \"some\"", "sync.redeem must be all, unpayable or none, got 'some'"),
    ])
    func eachMistakeIsNamed(text: String, reason: String) {
        #expect {
            _ = try NodeConfiguration.parse(text, name: "node.toml")
        } throws: { error in
            guard let error = error as? NodeError, case .usage(let message) = error.kind else {
                return false
            }
            return message.contains(reason) && message.contains("node.toml")
        }
    }

    /// A file far larger than any node.toml is the wrong file: a usage error, not a
    /// protocol refusal ("proof too large").
    @Test func aHugeFileIsAUsageError() throws {
        let path = try TemporaryDirectory("tender-config").file("node.toml")
        try Data(repeating: 0x23, count: (1 << 20) + 1).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try NodeConfiguration.load(path)
        } throws: { error in
            guard let error = error as? NodeError, case .usage(let message) = error.kind else {
                return false
            }
            return message.contains("larger than 1048576 bytes")
        }
    }

    @Test func aBadEnvironmentValueNamesTheVariable() {
        #expect {
            _ = try NodeConfiguration.parse(
                "", name: "node.toml", environment: ["TENDER_SYNC_INTERVAL": "soon"])
        } throws: { error in
            "\(error)".contains(
                "TENDER_SYNC_INTERVAL must be seconds or a duration (30s, 5m, 1h), got 'soon'")
        }
    }

    /// A mistyped variable is refused, as a mistyped key in the file is; other TENDER_
    /// variables (the data directory, the passphrase) are not settings of the node.
    @Test func aMistypedEnvironmentVariableIsRefusedByName() throws {
        #expect {
            _ = try NodeConfiguration.parse(
                "", name: "node.toml", environment: ["TENDER_SYNC_INTERVALL": "10"])
        } throws: { error in
            "\(error)".contains("unknown setting TENDER_SYNC_INTERVALL in the environment")
                && "\(error)".contains("TENDER_SYNC_INTERVAL")
        }
        let settings = try NodeConfiguration.parse(
            "", name: "node.toml",
            environment: ["TENDER_HOME": "/var/lib/tender", "TENDER_SYNC_REDEEM": "none"])
        #expect(settings.redeem == .none)
    }

    @Test func onlyLoopbackAndUnixSocketsAreLocal() throws {
        for text in ["127.0.0.1:8737", "localhost:8737", "[::1]:8737", "unix:/run/tender.sock"] {
            #expect(try ListenAddress(text).isLocal, "\(text)")
        }
        for text in ["0.0.0.0:8737", "192.168.1.20:8737", "[::]:8737"] {
            #expect(try !ListenAddress(text).isLocal, "\(text)")
        }
    }
}

/// The API token file: made 0600 on first start, read back the same, refused when others
/// can read it.
@Suite struct APITokenFileTests {
    @Test func theTokenIsMadeOnceOwnerOnlyAndReadBack() throws {
        let folder = try TemporaryDirectory("tender-token")
        let path = folder.file("api-token")
        let token = try APITokenFile.loadOrCreate(path)
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
        #expect(try DurableFile.permissions(path) & 0o777 == 0o600)
        #expect(try APITokenFile.loadOrCreate(path) == token)
    }

    @Test func aTokenOthersCanReadIsRefused() throws {
        let folder = try TemporaryDirectory("tender-token")
        let path = folder.file("api-token")
        _ = try APITokenFile.loadOrCreate(path)
        chmod(path, 0o644)
        #expect {
            _ = try APITokenFile.loadOrCreate(path)
        } throws: { error in
            guard let error = error as? NodeError, case .permission(let message) = error.kind
            else { return false }
            return message.contains("chmod 600")
        }
    }

    @Test func aShortTokenIsRefused() throws {
        let folder = try TemporaryDirectory("tender-token")
        let path = folder.file("api-token")
        try DurableFile.write(Array("secret\n".utf8), to: path, mode: 0o600)
        #expect(throws: NodeError.self) { _ = try APITokenFile.loadOrCreate(path) }
    }
}

/// sd_notify's datagrams arrive at the socket `$NOTIFY_SOCKET` names; without it nothing is
/// sent.
@Suite struct SystemdNotifierTests {
    @Test func readyReachesTheNotifySocket() throws {
        let folder = try TemporaryDirectory("tender-notify")
        let path = folder.file("notify")
        let listener = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)

        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        #expect(notifier.watchdogInterval == nil)
        try notifier.notify("READY=1\nSTATUS=serving")
        var buffer = [UInt8](repeating: 0, count: 256)
        let received = recv(listener, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(received > 0)
        #expect(
            String(decoding: buffer.prefix(max(0, received)), as: UTF8.self)
                == "READY=1\nSTATUS=serving")
    }

    @Test func theWatchdogPingsAtHalfItsTimeoutAndOnlyForThisProcess() throws {
        let mine = SystemdNotifier(environment: [
            "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "\(getpid())",
        ])
        #expect(mine.watchdogInterval == .seconds(5))
        let other = SystemdNotifier(environment: ["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"])
        #expect(other.watchdogInterval == nil)
        try SystemdNotifier(environment: [:]).notify("READY=1")  // no socket: nothing, no error
    }
}
