import Secp256k1
import TenderTestSupport
import Testing

@testable import Tender

@Suite struct BundleHashesTests {
    let world = World()

    /// A signature over `digest` that recovers no key: r is the x of no curve point.
    private func unrecoverable(over digest: Bytes32) throws -> RecoverableSignature {
        for r in UInt8(1)...UInt8(60) {
            let bytes =
                [UInt8](repeating: 0, count: 31) + [r] + [UInt8](repeating: 0, count: 31)
                + [1, 0]
            let signature = try RecoverableSignature(bytes: bytes)
            if signer(of: digest, signature: signature) == nil { return signature }
        }
        throw BundleHashesTestFailure()
    }

    /// The signer found is the one recovered alone, and the in-place check agrees with it.
    private func expectSigner(
        _ found: Address?, _ expected: Address?, _ isSignedBy: (Address) -> Bool,
        _ what: Comment
    ) {
        #expect(found == expected, what)
        if let expected { #expect(isSignedBy(expected), what) }
        #expect(!isSignedBy(world.carol), what)
    }

    // Hashed in batches, every value equals the one hashed alone: notes, transfers of one to
    // five inputs and outputs (lists of more than four words take two blocks), signers of good
    // and unrecoverable signatures; transfers the verifier refuses first are not hashed.
    @Test func equalsHashingOneAtATime() throws {
        let limits = VerificationLimits(maxOutputsPerTransfer: 5)
        var notes = (1...11).map { world.note(Amount($0), serial: UInt8($0)) }
        let lostDigest = notes[3].note.digest(in: world.domain)
        notes[3] = SignedNote(note: notes[3].note, signature: try unrecoverable(over: lostDigest))
        let coins = notes.map { $0.coinID(in: world.domain) }
        var transfers: [SignedTransfer] = []
        for shape in 0..<25 {
            let inputs = Array(coins[shape % 7..<shape % 7 + 1 + shape % 5])
            let outputs = (0...(shape / 5)).map { (world.bob, Amount(1 + $0)) }
            transfers.append(world.transfer(inputs, outputs, by: world.aliceKey))
        }
        transfers.append(world.transfer([], [(world.bob, 1)], by: world.aliceKey))
        transfers.append(world.transfer([coins[0]], [], by: world.aliceKey))
        transfers.append(
            world.transfer([coins[0]], (1...6).map { (world.bob, $0) }, by: world.aliceKey))
        let broken = transfers[7].transfer
        transfers[7] = SignedTransfer(
            transfer: broken,
            signature: try unrecoverable(over: broken.digest(in: world.domain)))

        let hashes = BundleHashes(
            ProofBundle(notes: notes, transfers: transfers), domain: world.domain, limits: limits)

        for (index, signed) in notes.enumerated() {
            let digest = signed.note.digest(in: world.domain)
            #expect(hashes.noteDigests[index] == digest, "note \(index)")
            #expect(hashes.noteCoin(index) == signed.coinID(in: world.domain), "note \(index)")
            expectSigner(
                hashes.noteSigner(index), signer(of: digest, signature: signed.signature),
                { hashes.isNote(index, signedBy: $0) }, "note \(index)")
        }
        #expect(hashes.noteSigner(3) == nil)
        #expect(!hashes.isNote(3, signedBy: world.issuer))
        #expect(hashes.noteSigner(0) == world.issuer)
        for (index, signed) in transfers.enumerated() {
            let transfer = signed.transfer
            guard index < 25 else {
                // Empty, or beyond the output limit: left to the verifier to refuse.
                #expect(hashes.transferDigests[index] == nil, "transfer \(index)")
                #expect(hashes.outputCoins(of: index).isEmpty, "transfer \(index)")
                #expect(hashes.transferSigner(index) == nil, "transfer \(index)")
                #expect(!hashes.isTransfer(index, signedBy: world.alice), "transfer \(index)")
                continue
            }
            let digest = transfer.digest(in: world.domain)
            #expect(hashes.transferDigests[index] == digest, "transfer \(index)")
            #expect(
                Array(hashes.outputCoins(of: index)) == signed.outputCoins(digest: digest),
                "transfer \(index)")
            expectSigner(
                hashes.transferSigner(index), signer(of: digest, signature: signed.signature),
                { hashes.isTransfer(index, signedBy: $0) }, "transfer \(index)")
        }
        #expect(hashes.transferSigner(7) == nil)
        #expect(!hashes.isTransfer(7, signedBy: world.alice))
        #expect(hashes.transferSigner(0) == world.alice)
    }

    @Test func anEmptyBundleHashesNothing() {
        let hashes = BundleHashes(ProofBundle(), domain: world.domain, limits: .standard)
        #expect(hashes.noteDigests.isEmpty && hashes.transferDigests.isEmpty)
    }
}

private struct BundleHashesTestFailure: Error {}
