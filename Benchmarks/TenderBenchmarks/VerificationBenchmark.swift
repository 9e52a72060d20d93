import Codecs
import Secp256k1
import Tender

/// Coin verification throughput (hops per second) beside raw libsecp256k1 in the same run.
enum VerificationBenchmark {
    static let hops = 8

    static func run(scale: Int) throws {
        let domain = Domain(
            chainID: 31337, vault: try Address("0x5FbDB2315678afecb367f032d93F642f64180aa3"))
        let keys = (1...9).map {
            try! PrivateKey(bytes: [UInt8](repeating: 0, count: 31) + [UInt8($0)])
        }

        // Raw curve: ECDSA verify against a known key, and public-key recovery.
        let digests = (0..<256).map { index in
            [UInt8](repeating: UInt8(index), count: 31) + [UInt8(truncatingIfNeeded: index &* 7)]
        }
        let signatures = try digests.map { try keys[1].sign(digest: $0) }
        let publicKey = keys[1].publicKey
        let bundles = try proofs(keys: keys, domain: domain)
        let payments = try bundles.map { try payment(of: $0, keys: keys, domain: domain) }
        let payee = payments[0].payee
        let policy = IssuerPolicy.trusted([Address(publicKey: keys[0].publicKey)])
        let verifier = Verifier(domain: domain)

        // Interleaved rounds, best of each: the VM's speed drifts between loops, and the ratio
        // of our rate to the curve's is the figure that matters.
        let rawCount = 2_000 * scale
        let bundleCount = 200 * scale
        var verifyRate = 0.0
        var recoverRate = 0.0
        var bundleRate = 0.0
        var paymentRate = 0.0
        var pairedRaw = 0.0
        var pairedBundles = 0.0
        var keccakRate = 0.0
        var batchRate = 0.0
        // One block each (64 bytes, an EIP-712 struct of two words): what a hop hashes most.
        let blocks = (0..<256).map { [UInt8](repeating: UInt8($0), count: 64) }
        var folded: UInt8 = 0
        for _ in 0..<10 {
            let verify = try Measure.rate(count: rawCount) { index in
                let signature = signatures[index & 255]
                guard signature.isValid(digest: digests[index & 255], publicKey: publicKey) else {
                    throw BenchmarkFailure("raw verify failed")
                }
            }
            let recover = try Measure.rate(count: rawCount) { index in
                let signature = signatures[index & 255]
                guard try signature.recoverPublicKey(digest: digests[index & 255]) == publicKey
                else {
                    throw BenchmarkFailure("raw recover failed")
                }
            }
            let bundle = try Measure.rate(count: bundleCount) { index in
                let verified = try verifier.verify(bundles[index & 31], now: 1_800_000_000)
                guard verified.leaves.count == hops + 1 else {
                    throw BenchmarkFailure("verification result")
                }
            }
            // What a payee runs on a payment: the proof, then the payer's signature over the
            // terms and the paid coins (Verifier.check).
            let paid = try Measure.rate(count: bundleCount) { index in
                let checked = try verifier.check(
                    payments[index & 31], payee: payee, policy: policy, now: 1_800_000_000)
                guard checked.credited.count == 1 else {
                    throw BenchmarkFailure("payment check result")
                }
            }
            let keccak = Measure.rate(count: rawCount * 20) { index in
                folded ^= Keccak256.hash(blocks[index & 255])[index & 31]
            }
            // The same blocks 64 at a time through a batch (eight at once where the CPU can).
            let batched = Measure.rate(count: rawCount / 2) { index in
                var batch = Keccak256Batch(messages: 64, bytesEach: 64)
                for block in 0..<64 {
                    batch.write(blocks[(index &+ block) & 255])
                    batch.endMessage()
                }
                folded ^= batch.digests()[index & 2047]
            }
            batchRate = max(batchRate, batched * 64)
            keccakRate = max(keccakRate, keccak)
            // Paired: each bundle beside nine raw recoveries, both timed, so that the host's
            // changes of speed (this VM's are large) fall on both sides of the ratio alike.
            let clock = ContinuousClock()
            for index in 0..<bundleCount {
                let rawStart = clock.now
                for offset in 0..<(hops + 1) {
                    let pick = (index &* 9 &+ offset) & 255
                    guard try signatures[pick].recoverPublicKey(digest: digests[pick]) == publicKey
                    else { throw BenchmarkFailure("raw recover failed") }
                }
                let bundleStart = clock.now
                let verified = try verifier.verify(bundles[index & 31], now: 1_800_000_000)
                let end = clock.now
                guard verified.leaves.count == hops + 1 else {
                    throw BenchmarkFailure("verification result")
                }
                pairedRaw += Measure.seconds(bundleStart - rawStart)
                pairedBundles += Measure.seconds(end - bundleStart)
            }
            verifyRate = max(verifyRate, verify)
            recoverRate = max(recoverRate, recover)
            bundleRate = max(bundleRate, bundle)
            paymentRate = max(paymentRate, paid)
        }
        let hopRate = bundleRate * Double(hops)
        let signatureRate = bundleRate * Double(hops + 1)
        Measure.report("libsecp256k1 ECDSA verify (raw)", verifyRate, "verifies/s")
        Measure.report("libsecp256k1 ECDSA recover (raw)", recoverRate, "recovers/s")
        Measure.report("keccak-256 of 64 bytes (Codecs)", keccakRate, "hashes/s")
        Measure.report("  per hash", 1e9 / keccakRate, "ns")
        Measure.report(
            "keccak-256 of 64 bytes, 64 a batch (\(Keccak256Batch.lanes) lanes)", batchRate,
            "hashes/s")
        Measure.report("  per hash", 1e9 / batchRate, "ns")
        // The hash measured is keccak-256: the empty input's known digest (Ethereum's); the
        // batch gives the scalar's digests.
        guard
            Keccak256.hash([UInt8]()).prefix(4) == [0xC5, 0xD2, 0x46, 0x01]
        else { throw BenchmarkFailure("keccak-256 of nothing is not c5d24601…") }
        var check = Keccak256Batch()
        for block in blocks {
            check.write(block)
            check.endMessage()
        }
        guard check.digests() == blocks.flatMap({ Keccak256.hash($0) }) else {
            throw BenchmarkFailure("a batch's digests are not keccak-256's")
        }
        withExtendedLifetime(folded) {}
        Measure.report("coin verification, 8-hop proofs (note + 8 transfers)", hopRate, "hops/s")
        Measure.report("  signatures checked (notes + transfers)", signatureRate, "signatures/s")
        Measure.report("  per-signature rate vs raw verify", 100 * signatureRate / verifyRate, "%")
        // Against recovery (how a Tender signature is checked), paired: the best-of rates
        // above drift apart by a few per cent between runs on a shared host.
        Measure.report(
            "  per-signature rate vs raw recover (paired)", 100 * pairedRaw / pairedBundles, "%")
        Measure.report(
            "  per-hop rate vs raw verify (note cost included)", 100 * hopRate / verifyRate, "%")
        // Ten signatures a payment: the note, eight transfers and the payer's over the terms.
        let paymentSignatures = paymentRate * Double(hops + 2)
        Measure.report("payment check, 8-hop proof + payer's signature", paymentRate, "payments/s")
        Measure.report(
            "  signatures checked (note + transfers + payer)", paymentSignatures, "signatures/s")
        Measure.report(
            "  per-signature rate vs raw verify", 100 * paymentSignatures / verifyRate, "%")
    }

    /// The payment of a proof's last coin to its owner, signed by the holder before it.
    static func payment(
        of bundle: ProofBundle, keys: [PrivateKey], domain: Domain
    ) throws -> Payment {
        let last = bundle.transfers[hops - 1]
        let coin = last.outputCoins(digest: last.transfer.digest(in: domain))[0]
        let output = last.transfer.outputs[0]
        return try Payment(
            signing: PaymentTerms(
                requestID: .zero, payee: output.owner, amount: output.amount, asset: .zero,
                memo: "benchmark", coins: [coin]),
            bundle: bundle, with: keys[1 + (hops - 1) % 8], in: domain)
    }

    /// 32 coins, each 8 hops from its note; every hop pays onward and returns change, as real
    /// payments do.
    static func proofs(keys: [PrivateKey], domain: Domain) throws -> [ProofBundle] {
        let addresses = keys.map { Address(publicKey: $0.publicKey) }
        return try (0..<32).map { variant in
            let note = try SignedNote(
                signing: Note(
                    serial: try Bytes32([UInt8](repeating: UInt8(variant), count: 32)),
                    issuer: addresses[0], asset: .zero, amount: 1_000, owner: addresses[1],
                    expiry: 2_000_000_000),
                with: keys[0], in: domain)
            var bundle = ProofBundle(notes: [note])
            var coin = note.coinID(in: domain)
            for hop in 0..<hops {
                let from = 1 + hop % 8
                let to = 1 + (hop + 1) % 8
                let transfer = try SignedTransfer(
                    signing: Transfer(
                        inputs: [coin],
                        outputs: [
                            Output(owner: addresses[to], amount: 999 - Amount(hop)),
                            Output(owner: addresses[from], amount: 1),
                        ]),
                    with: keys[from], in: domain)
                coin = transfer.outputCoins(digest: transfer.transfer.digest(in: domain))[0]
                bundle.transfers.append(transfer)
            }
            return bundle
        }
    }
}
