import Foundation

// Figures for the numbers Tender claims (Docs/BENCHMARKS.md). Run in release on one core:
//   swift build -c release --product TenderBenchmarks
//   taskset -c 0 .build/release/TenderBenchmarks [--quick]
let quick = CommandLine.arguments.contains("--quick")
print("Tender benchmarks (\(quick ? "quick" : "full") run)")
do {
    try VerificationBenchmark.run(scale: quick ? 1 : 5)
    try StoreBenchmark.run(coins: quick ? 10_000 : 100_000, payments: quick ? 200 : 2_000)
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
