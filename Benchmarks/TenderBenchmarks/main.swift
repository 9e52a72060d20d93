import Foundation
import WalletStore

// Figures for the numbers Tender claims (Docs/BENCHMARKS.md). Run in release on one core:
//   swift build -c release --product TenderBenchmarks
//   taskset -c 0 .build/release/TenderBenchmarks [--quick] [--only=verify|qr|store|storage]
// Settlement on the dev chain (Rigs/dev-chain; not part of a plain run):
//   .build/release/TenderBenchmarks --only=settle [--coins=10000]
// `tender node` under load on loopback (builds on the release `tender`):
//   swift build -c release --product tender
//   .build/release/TenderBenchmarks --only=node [--seconds=60] [--tender=PATH]
let quick = CommandLine.arguments.contains("--quick")
print("Tender benchmarks (\(quick ? "quick" : "full") run)")
do {
    let only = CommandLine.arguments.first { $0.hasPrefix("--only=") }?.dropFirst(7)
    if only == nil || only == "verify" { try VerificationBenchmark.run(scale: quick ? 1 : 5) }
    if only == nil || only == "qr" { try QRBenchmark.run(scale: quick ? 1 : 3) }
    if only == nil || only == "storage" { try StorageBenchmark.run() }
    if only == "settle" {
        let coins =
            CommandLine.arguments.first { $0.hasPrefix("--coins=") }
            .flatMap { Int($0.dropFirst(8)) } ?? 10_000
        try await SettlementBenchmark.run(coins: coins)
    }
    if only == "node" {
        let tender =
            CommandLine.arguments.first { $0.hasPrefix("--tender=") }.map {
                String($0.dropFirst(9))
            }
            ?? ".build/release/tender"
        let seconds =
            CommandLine.arguments.first { $0.hasPrefix("--seconds=") }
            .flatMap { Int($0.dropFirst(10)) } ?? 60
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
