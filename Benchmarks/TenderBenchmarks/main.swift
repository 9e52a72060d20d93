import Foundation
import WalletStore

// Figures for the numbers Tender claims (Docs/BENCHMARKS.md). Run in release on one core:
//   swift build -c release --product TenderBenchmarks
//   taskset -c 0 .build/release/TenderBenchmarks [--quick] [--only=verify|qr|store|storage]
// Settlement on the dev chain (Rigs/dev-chain; not part of a plain run):
//   .build/release/TenderBenchmarks --only=settle [--coins=10000]
// `tender node` under load on loopback, the binary the .deb ships (static Swift runtime):
//   swift build -c release --static-swift-stdlib --product tender
//   swift build -c release --static-swift-stdlib --product TenderBenchmarks
//   .build/release/TenderBenchmarks --only=node [--seconds=60] [--tender=PATH]
let quick = CommandLine.arguments.contains("--quick")

/// The value of the first argument that starts with `prefix` ("--coins="), without it.
func argument(_ prefix: String) -> String? {
    CommandLine.arguments.first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
}

print("Tender benchmarks (\(quick ? "quick" : "full") run)")
do {
    let only = argument("--only=")
    if only == nil || only == "verify" { try VerificationBenchmark.run(scale: quick ? 1 : 5) }
    if only == nil || only == "qr" { try QRBenchmark.run(scale: quick ? 1 : 3) }
    if only == nil || only == "storage" { try StorageBenchmark.run() }
    if only == "settle" {
        let coins = argument("--coins=").flatMap { Int($0) } ?? 10_000
        try await SettlementBenchmark.run(coins: coins)
    }
    if only == "node" {
        let tender = argument("--tender=") ?? ".build/release/tender"
        let seconds = argument("--seconds=").flatMap { Int($0) } ?? 60
        try await NodeBenchmark.run(tender: tender, seconds: seconds)
    }
    if only == nil || only == "store" {
        for durability in [WalletDatabase.Durability.powerLoss, .processCrash] {
            try StoreBenchmark.run(
                coins: quick ? 10_000 : 100_000, payments: quick ? 200 : 2_000,
                durability: durability)
        }
    }
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
