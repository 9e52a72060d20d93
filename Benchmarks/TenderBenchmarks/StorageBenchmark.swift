import Foundation
import Secp256k1
import Tender
import WalletStore

/// What one accepted payment adds to the payee's store, against the payment's own size
/// (Docs/PROTOCOL.md §5.1): an ordinary two-hop payment, and a hostile one whose 256 paid coins
/// all descend from (nearly) the whole bundle, the shape that once grew a store 200-fold.
enum StorageBenchmark {
    static let domain = Domain(
        chainID: 31337, vault: try! Address("0x5FbDB2315678afecb367f032d93F642f64180aa3"))
    static let issuerKey = try! PrivateKey(bytes: [UInt8](repeating: 0, count: 31) + [1])
    static let payerKey = try! PrivateKey(bytes: [UInt8](repeating: 0, count: 31) + [2])
    static let payeeKey = try! PrivateKey(bytes: [UInt8](repeating: 0, count: 31) + [3])
    static let now: UInt64 = 1_800_000_000

    static func run() throws {
        let payee = Address(publicKey: payeeKey.publicKey)
        // Small payments fit in free page space one at a time: 500 of them, on average.
        let ordinary = try (0..<500).map { serial in
            try layered(payee: payee, layers: [(1, 2, 60)], serial: UInt32(serial))
        }
        let hostile = try layered(
            payee: payee, layers: [(1, 16, 16), (1, 16, 1), (1, 1, 1), (32, 16, 2), (32, 16, 4)],
            last: (4, 16, 1))
        // As many coins as a payment's transfers can make (16 transfers of 16 outputs): each
        // costs its output's 50-odd bytes on the wire and a row of its own in the store.
        let coinHeavy = try (0..<30).map { serial in
            try layered(
                payee: payee, layers: [(1, 16, 16)], last: (1, 16, 1),
                serial: UInt32(1_000 + serial))
        }
        for (name, payments) in [
            ("ordinary: a note and one transfer paying 2 coins (x500)", ordinary),
            ("hostile: 1 note, 301 transfers, 256 paid coins sharing them", [hostile]),
            ("coin-heavy: a note, 17 transfers, 256 paid coins (x30)", coinHeavy),
        ] {
            let bytes = payments.reduce(0) {
                $0 + Envelope(domain: domain, message: .payment($1)).encoded().count
            }
            let grown = try storeGrowth(accepting: payments, payee: payee)
            print("-- storage: \(name)")
            Measure.report("  payment envelopes", Double(bytes), "B")
            Measure.report("  store growth (file after checkpoint)", Double(grown), "B")
            Measure.report("  growth / payment size", Double(grown) / Double(bytes), "x")
        }
    }

    /// Bytes the database file grows by when the payee accepts `payment` (WAL checkpointed).
    static func storeGrowth(accepting payments: [Payment], payee: Address) throws -> Int {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("tender-storage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("wallet.sqlite").path
        let store = try WalletDatabase(path: path)
        try store.bind(address: payee, domain: domain)
        try store.trust(Address(publicKey: issuerKey.publicKey), now: now)
        try store.checkpoint()
        let before = try size(path)
        for payment in payments {
            let checked = try Verifier(domain: domain).check(
                payment, payee: payee,
                policy: .trusted([Address(publicKey: issuerKey.publicKey)]), now: now)
            guard checked.credited.count == payment.coins.count else {
                throw BenchmarkFailure("not every coin was credited")
            }
            try store.acceptPayment(checked, receipt: [0], now: now)
        }
        try store.close()
        if ProcessInfo.processInfo.environment["TENDER_STORAGE_KEEP"] != nil {
            // For a look at what each table and index holds: sqlite3 FILE "SELECT name,
            // SUM(pgsize) FROM dbstat GROUP BY name".
            let kept = "/tmp/tender-storage-\(payments.count)-\(payments[0].coins.count).sqlite"
            try? FileManager.default.removeItem(atPath: kept)
            try FileManager.default.copyItem(atPath: path, toPath: kept)
            print("  store kept at \(kept)")
        }
        return try size(path) - before
    }

    static func size(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// One note fanned out layer by layer by the payer: each layer `(inputs, outputs, each)`
    /// takes `inputs` coins of the layer before per transfer; the last pays the payee.
    static func layered(
        payee: Address, layers: [(Int, Int, Amount)], last: (Int, Int, Amount)? = nil,
        serial: UInt32 = 0
    ) throws -> Payment {
        let payer = Address(publicKey: payerKey.publicKey)
        let total = layers.first.map { Amount($0.1) * $0.2 } ?? 0
        let note = try SignedNote(
            signing: Note(
                serial: try Bytes32(
                    [UInt8](repeating: 0, count: 28)
                        + withUnsafeBytes(of: serial.bigEndian, Array.init)),
                issuer: Address(publicKey: issuerKey.publicKey), asset: .zero,
                amount: total, owner: payer, expiry: now + 86_400),
            with: issuerKey, in: domain)
        var bundle = ProofBundle(notes: [note])
        var coins = [note.coinID(in: domain)]
        let steps = layers.map { ($0, payer) } + (last.map { [($0, payee)] } ?? [])
        var paid: [CoinID] = []
        for (index, ((inputs, outputs, each), owner)) in steps.enumerated() {
            let isLast = index == steps.count - 1
            let to = isLast && last == nil ? payee : owner
            var next: [CoinID] = []
            for start in stride(from: 0, to: coins.count, by: inputs) {
                let transfer = try SignedTransfer(
                    signing: Transfer(
                        inputs: Array(coins[start..<start + inputs]),
                        outputs: Array(repeating: Output(owner: to, amount: each), count: outputs)
                    ), with: payerKey, in: domain)
                bundle.transfers.append(transfer)
                next += transfer.outputCoins(digest: transfer.transfer.digest(in: domain))
            }
            coins = next
            if isLast { paid = next }
        }
        let amount = Amount(paid.count) * (last?.2 ?? layers.last!.2)
        return try Payment(
            signing: PaymentTerms(
                requestID: bundle.notes[0].note.serial, payee: payee, amount: amount,
                asset: .zero, coins: paid),
            bundle: bundle, with: payerKey, in: domain)
    }
}
