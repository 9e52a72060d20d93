import Foundation
import Secp256k1
import Tender
import WalletStore

/// Payment reserve+commit latency on a wallet holding 100,000 coins (SQLite, WAL,
/// synchronous=FULL, on the disk the benchmark runs from).
enum StoreBenchmark {
    static func run(
        coins coinCount: Int, payments: Int, durability: WalletDatabase.Durability
    ) throws {
        let domain = Domain(
            chainID: 31337, vault: try Address("0x5FbDB2315678afecb367f032d93F642f64180aa3"))
        let issuerKey = try PrivateKey(bytes: [UInt8](repeating: 0, count: 31) + [1])
        let ownerKey = try PrivateKey(bytes: [UInt8](repeating: 0, count: 31) + [2])
        let issuer = Address(publicKey: issuerKey.publicKey)
        let owner = Address(publicKey: ownerKey.publicKey)
        let payee = Address(
            publicKey: try PrivateKey(bytes: [UInt8](repeating: 0, count: 31) + [3]).publicKey)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tender-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try WalletDatabase(
            path: directory.appendingPathComponent("wallet.sqlite").path, durability: durability)
        print("-- store, synchronous = \(durability.rawValue)")
        try store.bind(address: owner, domain: domain)
        try store.trust(issuer, now: 0)

        // Fill the wallet through the real acceptance path, 250 notes a payment.
        let verifier = Verifier(domain: domain)
        let now: UInt64 = 1_800_000_000
        let clock = ContinuousClock()
        let fillStart = clock.now
        var serial: UInt32 = 0
        while serial < coinCount {
            let batch = min(250, coinCount - Int(serial))
            var notes: [SignedNote] = []
            for _ in 0..<batch {
                serial += 1
                let bytes =
                    (0..<28).map { _ in UInt8(0) }
                    + withUnsafeBytes(of: serial.bigEndian, Array.init)
                notes.append(
                    try SignedNote(
                        signing: Note(
                            serial: try Bytes32(bytes), issuer: issuer, asset: .zero,
                            amount: Amount(1 + serial % 1_000), owner: owner, expiry: now + 86_400),
                        with: issuerKey, in: domain))
            }
            let requestBytes =
                (0..<28).map { _ in UInt8(0xFF) }
                + withUnsafeBytes(of: serial.bigEndian, Array.init)
            let payment = try Payment(
                signing: PaymentTerms(
                    requestID: try Bytes32(requestBytes), payee: owner,
                    amount: notes.reduce(0) { $0 + $1.note.amount }, asset: .zero,
                    coins: notes.map { $0.coinID(in: domain) }),
                bundle: ProofBundle(notes: notes), with: issuerKey, in: domain)
            let checked = try verifier.check(
                payment, payee: owner, policy: .trusted([issuer]), now: now)
            try store.acceptPayment(checked, receipt: [0], now: now)
        }
        try store.checkpoint()
        Measure.report("wallet filled with coins", Double(coinCount), "coins")
        Measure.report("  fill time (verify + accept)", Measure.seconds(clock.now - fillStart), "s")

        // Each payment: plan (selection query + signing), then reserve+commit (one transaction).
        let builder = PaymentBuilder(domain: domain)
        var planTimes: [Double] = []
        var commitTimes: [Double] = []
        for index in 0..<payments {
            let amount = Amount(50 + index % 1_500)
            let planStart = clock.now
            let candidates = try store.candidateCoins(
                owner: owner, asset: .zero, amount: amount, now: now, minimumLifetime: 0,
                limits: .standard)
            let requestBytes =
                (0..<28).map { _ in UInt8(0xAA) }
                + withUnsafeBytes(of: UInt32(index).bigEndian, Array.init)
            let plan = try builder.plan(
                requestID: try Bytes32(requestBytes), payee: payee, amount: amount, asset: .zero,
                from: candidates, key: ownerKey, now: now)
            let envelope = Envelope(domain: domain, message: .payment(plan.payment)).encoded()
            let commitStart = clock.now
            try store.preparePayment(plan, envelope: envelope, now: now)
            let done = clock.now
            planTimes.append(Measure.seconds(commitStart - planStart))
            commitTimes.append(Measure.seconds(done - commitStart))
            guard try store.outgoingPayment(plan.payment.requestID)?.state == .prepared else {
                throw BenchmarkFailure("payment not recorded")
            }
        }
        let rows: [(String, [Double], Double)] = [
            ("reserve+commit (one transaction), p50", commitTimes, 0.50),
            ("reserve+commit (one transaction), p90", commitTimes, 0.90),
            ("reserve+commit (one transaction), p99", commitTimes, 0.99),
            ("reserve+commit (one transaction), max", commitTimes, 1.00),
            ("select+sign (before the transaction), p50", planTimes, 0.50),
            ("select+sign (before the transaction), p99", planTimes, 0.99),
        ]
        for (name, times, fraction) in rows {
            Measure.report(name, 1e3 * Measure.percentile(times, fraction), "ms")
        }
        try store.close()
    }
}
