import Cashu
import CashuWallet
import Secp256k1
import Testing

/// Swaps are cut into batches a mint takes (at most `maximumInputs` inputs) whose sums cannot
/// overflow, whatever amounts a mint signed.
@Suite struct SwapBatchTests {
    private func proofs(_ amounts: [UInt64]) throws -> [Proof] {
        let point = try PublicKey.generatorMultiple([UInt8](repeating: 0, count: 31) + [1])
        return amounts.enumerated().map { index, amount in
            Proof(amount: amount, keysetID: [0], secret: "\(index)", signature: point)
        }
    }

    @Test func batchesKeepEveryProofOnceInOrder() throws {
        let many = try proofs(Array(repeating: 1, count: 150))
        let batches = CashuWallet.batches(many)
        #expect(batches.map(\.count) == [64, 64, 22])
        #expect(batches.flatMap { $0 } == many)
    }

    @Test func hugeAmountsGoInTheirOwnBatches() throws {
        let huge = try proofs([1 << 62, 1 << 62, 1 << 62, 5])
        let batches = CashuWallet.batches(huge)
        #expect(batches.flatMap { $0 } == huge)
        for batch in batches {
            let (_, overflow) = batch.reduce((UInt64(0), false)) { partial, proof in
                let (sum, overflow) = partial.0.addingReportingOverflow(proof.amount)
                return (sum, partial.1 || overflow)
            }
            #expect(!overflow)
        }
    }
}
