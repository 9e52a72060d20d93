import Codecs
import DevTools
import EVM
import EVMSettlement
import Foundation
import NodeKit
import Secp256k1
import Settlement
import Synchronization
import Tender

/// Time to settle many coins on the dev chain (Rigs/dev-chain, started here on its own port):
/// the embedded vault deployed and funded, `coins` notes issued to Bob and taken by his wallet,
/// then the sync engine with the EVM adapter until every coin is redeemed at 1 confirmation.
/// Prints the wall time, transactions, coins per transaction and gas per coin from receipts.
enum SettlementBenchmark {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The public development mnemonic's account 0 (Rigs/dev-chain/README.md).
    static let devKey = try! PrivateKey(
        bytes: Hex.decode("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"))
    static let chainID: UInt64 = 31337

    static func run(coins: Int, port: Int = 18_845) async throws {
        print("\n== Settlement: \(coins) coins on the dev chain (py-evm), confirmations 1")
        try rig("start.sh", ["--port", String(port), "--chain-id", String(chainID)])
        defer { _ = try? rig("stop.sh", ["--port", String(port)]) }
        let client = EthereumRPC.makeHTTPClient()
        do {
            try await settle(
                coins: coins, rpc: EthereumRPC(endpoint: "http://127.0.0.1:\(port)", client: client)
            )
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    static func settle(coins: Int, rpc: EthereumRPC) async throws {
        let clock = SystemClock()
        let amount: Amount = 1_000_000_000
        let issuerDesk = VaultOperator(key: devKey, rpc: rpc, chainID: chainID)
        let (vault, _) = try await issuerDesk.deploy()
        try await issuerDesk.deposit(Wei(amount) * Wei(coins), of: .zero, into: vault)
        try await issuerDesk.lock(until: clock.now() + 40 * 86_400, in: vault)
        let domain = Domain(chainID: chainID, vault: vault)
        let bobKey = PrivateKey.generate()
        let bob = Address(publicKey: bobKey.publicKey)
        let funding = try await issuerDesk.sender.send(
            to: bob, value: 1_000 * 1_000_000_000 * .gwei)
        _ = try await rpc.waitForReceipt(funding.hash, timeout: .seconds(30))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tender-settle-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wallet = try Wallet.create(
            at: folder.appendingPathComponent("wallet.sqlite").path, address: bob, domain: domain)
        let issuer = Issuer(key: devKey, domain: domain)
        try wallet.trust(issuer.address, now: clock.now())
        var random = SystemRandomNumberGenerator()
        let received = ContinuousClock.now
        var left = coins
        while left > 0 {
            let count = min(left, VerificationLimits.standard.maxNotes)
            let (_, envelope) = try issuer.issue(
                to: bob, amount: amount, count: count, asset: .zero, expiry: clock.now() + 86_400,
                using: &random)
            _ = try wallet.receive(envelope, key: bobKey, now: clock.now())
            left -= count
        }
        print(
            "  \(coins) notes issued and received in \(tenths(Measure.seconds(since: received))) s")

        let recorded = Recorded()
        let engine = SettlementEngine(
            wallet: wallet, chain: EVMSettlementChain(rpc: rpc, chainID: chainID, key: bobKey),
            clock: clock, confirmations: 1)
        let started = ContinuousClock.now
        let open = try await engine.run(passes: 10_000, pause: .milliseconds(100)) { event in
            if case .recorded(let tx, let count) = event { recorded.add(tx, count) }
        }
        let elapsed = tenths(Measure.seconds(since: started))
        let redeemed = try wallet.coinCounts()[.redeemed] ?? 0
        var gas: UInt64 = 0
        for (tx, _) in recorded.all {
            gas += try await rpc.transactionReceipt(tx)?.gasUsed ?? 0
        }
        let transactions = recorded.all.count
        print("  settled: \(redeemed) of \(coins) coins redeemed, \(open) transaction(s) open")
        print(
            "  time to settle: \(elapsed) s (\(Int(Double(redeemed) / max(elapsed, 0.001))) coins/s)"
        )
        print(
            "  \(transactions) redeem transactions, \(redeemed / max(transactions, 1)) coins per transaction (largest \(recorded.all.map(\.1).max() ?? 0))"
        )
        print(
            "  gas: \(gas / UInt64(max(redeemed, 1))) gas per coin (0-hop notes, whole transactions)"
        )
    }

    /// Runs a dev-chain rig script.
    @discardableResult
    static func rig(_ script: String, _ arguments: [String]) throws -> String {
        // system(3), not Foundation's Process: its waitUntilExit hung now and then here, and
        // the server start.sh leaves running must not hold a pipe of ours open.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tender-rig-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let script = root.appendingPathComponent("Rigs/dev-chain/\(script)").path
        let status = system(
            (["/bin/bash", script] + arguments).map { "'\($0)'" }.joined(separator: " ")
                + " >'\(log.path)' 2>&1")
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw NodeError(.io("Rigs/dev-chain/\(script) failed: \(output)"))
        }
        return output
    }

    /// `seconds` to the tenth, as printed.
    static func tenths(_ seconds: Double) -> Double { (seconds * 10).rounded() / 10 }
}

/// Redeem transactions as the engine reports them.
final class Recorded: Sendable {
    private let entries = Mutex<[(Bytes32, Int)]>([])
    func add(_ tx: Bytes32, _ coins: Int) { entries.withLock { $0.append((tx, coins)) } }
    var all: [(Bytes32, Int)] { entries.withLock { $0 } }
}
