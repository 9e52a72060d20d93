import AsyncHTTPClient
import CashuMint
import ChainTestSupport
import Foundation
import Testing

/// A real mint (Rigs/cashu-mint: nutshell with the FakeWallet, units sat and usd) started for a
/// suite on a free port in a temporary directory, with the client its tests share.
struct CashuMintRig: Sendable {
    let url: String
    /// The mint's data directory; wallets of nutshell's CLI live under it too.
    let directory: URL
    let mint: MintClient

    @TaskLocal static var current: CashuMintRig?

    static var rigDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Rigs/cashu-mint")
    }

    /// The rig's venv python (made once by Rigs/cashu-mint/venv.sh).
    static var python: String { rigDirectory.appendingPathComponent(".venv/bin/python").path }

    /// Runs nutshell's wallet CLI with its own data directory under the mint's: its output.
    func wallet(_ name: String, _ arguments: [String]) throws -> String {
        let script = Self.rigDirectory.appendingPathComponent("wallet.sh").path
        let dir = directory.appendingPathComponent("wallet-\(name)").path
        let (status, output) = try Shell.run("/bin/bash", [script, url, dir] + arguments)
        guard status == 0 else {
            throw MintTestFailure("wallet \(arguments.joined(separator: " ")): \(output)")
        }
        return output
    }

    /// Mints `amount` into nutshell's wallet `name` (Rigs/cashu-mint/fund.sh: a quote, then
    /// claimed, with no websocket wait).
    func fund(_ name: String, _ amount: UInt64) throws {
        let script = Self.rigDirectory.appendingPathComponent("fund.sh").path
        let dir = directory.appendingPathComponent("wallet-\(name)").path
        let (status, output) = try Shell.run("/bin/bash", [script, url, dir, String(amount)])
        guard status == 0 else { throw MintTestFailure("fund \(name) \(amount): \(output)") }
    }

    /// A BOLT11 invoice for `sats` from a node that is not the mint (random keys), which the
    /// FakeWallet pays as an outgoing payment, with a fee reserve.
    func externalInvoice(sats: UInt64) throws -> String {
        let script = """
            import os, sys, time
            from bolt11 import Bolt11, Feature, Features, FeatureState, MilliSatoshi, TagChar, Tags, encode
            tags = Tags()
            tags.add(TagChar.features, Features.from_feature_list({Feature.payment_secret: FeatureState.supported}))
            tags.add(TagChar.description, "tender test")
            tags.add(TagChar.expire_time, 3600)
            tags.add(TagChar.payment_secret, os.urandom(32).hex())
            tags.add(TagChar.payment_hash, os.urandom(32).hex())
            invoice = Bolt11(currency="bc", amount_msat=MilliSatoshi(int(sys.argv[1]) * 1000), date=int(time.time()), tags=tags)
            print(encode(invoice, os.urandom(32).hex()))
            """
        let (status, output) = try Shell.run(Self.python, ["-c", script, String(sats)])
        guard status == 0,
            let line = output.split(separator: "\n").last(where: { $0.hasPrefix("lnbc") })
        else { throw MintTestFailure("invoice: \(output)") }
        return String(line)
    }
}

/// Starts the mint before the suite and stops it after, removing its directory.
struct CashuMintScope: SuiteTrait, TestScoping {
    let isRecursive = false
    /// Settings for the mint, `NAME=value` (the FakeWallet's payment states, say).
    var environment: [String] = []

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let port = try Shell.freePort()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cashu-mint-\(UUID().uuidString)")
        let rig = CashuMintRig.rigDirectory
        let (status, output) = try Shell.run(
            "/usr/bin/env",
            environment + [
                "/bin/bash", rig.appendingPathComponent("start.sh").path, "--port", String(port),
                "--data", directory.path, "--units", "sat,usd",
            ])
        // Standard error is mixed in: the URL is the last line.
        let url = output.split(separator: "\n").last.map(String.init) ?? ""
        guard status == 0, url == "http://127.0.0.1:\(port)" else {
            _ = try? Shell.run(
                "/bin/bash", [rig.appendingPathComponent("stop.sh").path, directory.path])
            try? FileManager.default.removeItem(at: directory)
            throw MintTestFailure("cashu mint start: \(output)")
        }
        let client = MintClient.makeHTTPClient()
        let mint = CashuMintRig(
            url: url, directory: directory,
            mint: MintClient(url: url, client: client, timeout: .seconds(600)))
        var failure: (any Error)?
        do { try await CashuMintRig.$current.withValue(mint) { try await function() } } catch {
            failure = error
        }
        try? await client.shutdown()
        _ = try? Shell.run(
            "/bin/bash", [rig.appendingPathComponent("stop.sh").path, directory.path])
        try? FileManager.default.removeItem(at: directory)
        if let failure { throw failure }
    }
}

extension Trait where Self == CashuMintScope {
    static var cashuMint: CashuMintScope { CashuMintScope() }

    /// A mint started with `environment` (`NAME=value` settings).
    static func cashuMint(environment: [String]) -> CashuMintScope {
        CashuMintScope(environment: environment)
    }
}
