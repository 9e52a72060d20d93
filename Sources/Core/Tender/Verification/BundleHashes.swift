import Codecs
import Secp256k1

/// Every digest, coin id and signer a bundle's verification needs, hashed in batches
/// (`Keccak256Batch`): EIP-712 hashing goes in layers (note structs, output structs and input
/// lists, then output lists, then transfer structs, then digests, then coin ids), each hashed
/// for all the bundle's notes and transfers at once. Then every signature is recovered and the
/// public keys hashed into addresses together. The values are those `Note.digest`,
/// `Transfer.digest`, `coinID` and `signer(of:signature:)` give one at a time (BundleHashesTests).
///
/// A transfer with no inputs or outputs, or more than the limits allow, is not hashed: the
/// verifier refuses it before it needs any of its values. Everything else is hashed and
/// recovered before the first check, so a bundle refused at its first note costs what one
/// refused at its last always did: bounded by the limits on notes and transfers, checked first.
struct BundleHashes {
    private(set) var noteDigests: [Bytes32] = []
    /// By transfer: nil when the transfer is outside the limits.
    private(set) var transferDigests: [Bytes32?] = []
    /// Each note's genesis coin, then each hashed transfer's outputs.
    private var coinIDs: [CoinID] = []
    /// By transfer: its outputs' coins in `coinIDs` (empty: not hashed).
    private var outputCoinRanges: [Range<Int>] = []
    /// The coin ids' digests, then the recovered keys' (an address is a key's last 20 bytes).
    private var hashes: [UInt8] = []
    /// By note, then by transfer: where its signer's key hash is in `hashes` (-1: none).
    private var signerAt: [Int] = []

    /// The genesis coin of note `index`.
    func noteCoin(_ index: Int) -> CoinID { coinIDs[index] }

    /// The coins of transfer `index`'s outputs (empty when it was not hashed).
    func outputCoins(of index: Int) -> ArraySlice<CoinID> { coinIDs[outputCoinRanges[index]] }

    /// Whether note `index`'s signature recovers `address`: compared in place, no `Address`.
    func isNote(_ index: Int, signedBy address: Address) -> Bool {
        signer(at: signerAt[index], is: address)
    }

    func isTransfer(_ index: Int, signedBy address: Address) -> Bool {
        signer(at: signerAt[noteDigests.count + index], is: address)
    }

    /// The address note `index`'s signature recovers (nil: none), for an error.
    func noteSigner(_ index: Int) -> Address? { signer(at: signerAt[index]) }

    func transferSigner(_ index: Int) -> Address? {
        signer(at: signerAt[noteDigests.count + index])
    }

    private func signer(at offset: Int, is address: Address) -> Bool {
        offset >= 0 && hashes[offset + 12..<offset + 32].elementsEqual(address.bytes)
    }

    private func signer(at offset: Int) -> Address? {
        offset >= 0 ? Address(unchecked: Array(hashes[offset + 12..<offset + 32])) : nil
    }

    init(_ bundle: ProofBundle, domain: Domain, limits: VerificationLimits) {
        let notes = bundle.notes
        let transfers = bundle.transfers
        let hashed = transfers.indices.filter { index in
            let transfer = transfers[index].transfer
            return !transfer.inputs.isEmpty && !transfer.outputs.isEmpty
                && transfer.inputs.count <= limits.maxInputsPerTransfer
                && transfer.outputs.count <= limits.maxOutputsPerTransfer
        }
        let outputCount = hashed.reduce(0) { $0 + transfers[$1].transfer.outputs.count }
        // One batch, emptied between layers: its room is allocated once.
        var batch = Keccak256Batch(messages: notes.count + hashed.count + outputCount)

        // Note structs, each transfer's input list, and each output struct.
        for signed in notes {
            signed.note.updateStruct(&batch)
            batch.endMessage()
        }
        for index in hashed {
            let transfer = transfers[index].transfer
            for input in transfer.inputs { batch.write(input.bytes) }
            batch.endMessage()
            for output in transfer.outputs {
                output.updateStruct(&batch)
                batch.endMessage()
            }
        }
        let structHashes = batch.digests()

        // Each transfer's output list, from its outputs' struct hashes.
        batch.removeAll()
        var inputLists: [Int] = []
        inputLists.reserveCapacity(hashed.count)
        var at = notes.count
        for index in hashed {
            inputLists.append(at)
            let outputs = transfers[index].transfer.outputs.count
            batch.write(structHashes[32 * (at + 1)..<32 * (at + 1 + outputs)])
            batch.endMessage()
            at += 1 + outputs
        }
        let outputLists = batch.digests()

        // Transfer structs: the type hash, then the two lists' hashes.
        batch.removeAll()
        for (position, input) in inputLists.enumerated() {
            batch.write(TypeHashes.transfer)
            batch.write(structHashes[32 * input..<32 * (input + 1)])
            batch.write(outputLists[32 * position..<32 * (position + 1)])
            batch.endMessage()
        }
        let transferStructHashes = batch.digests()

        // Digests: notes, then transfers.
        batch.removeAll()
        for index in notes.indices {
            domain.updateDigestMessage(
                structHash: structHashes[32 * index..<32 * (index + 1)], &batch)
            batch.endMessage()
        }
        for position in hashed.indices {
            domain.updateDigestMessage(
                structHash: transferStructHashes[32 * position..<32 * (position + 1)], &batch)
            batch.endMessage()
        }
        let digests = batch.digests()
        func digest(_ index: Int) -> Bytes32 {
            Bytes32(trusted: Array(digests[32 * index..<32 * (index + 1)]))
        }
        noteDigests = notes.indices.map(digest)
        transferDigests = [Bytes32?](repeating: nil, count: transfers.count)
        for (position, index) in hashed.enumerated() {
            transferDigests[index] = digest(notes.count + position)
        }

        // Coin ids (each note's genesis coin, then each hashed transfer's outputs) and the
        // signers' keys, in one batch: every signature recovered, its key hashed after the ids.
        batch.removeAll()
        for digest in noteDigests {
            updateCoinIDMessage(digest: digest, index: 0, &batch)
            batch.endMessage()
        }
        outputCoinRanges = [Range<Int>](repeating: 0..<0, count: transfers.count)
        at = notes.count
        for index in hashed {
            let outputs = transfers[index].transfer.outputs.count
            for output in 0..<outputs {
                updateCoinIDMessage(digest: transferDigests[index]!, index: UInt32(output), &batch)
                batch.endMessage()
            }
            outputCoinRanges[index] = at..<at + outputs
            at += outputs
        }
        let idCount = at
        signerAt = [Int](repeating: -1, count: notes.count + transfers.count)
        var keys = 0
        func recover(_ signature: RecoverableSignature, over digest: Bytes32, slot: Int) {
            let found: Void? = try? signature.withRecoveredCoordinates(digest: digest.bytes) {
                batch.write($0)
                batch.endMessage()
            }
            guard found != nil else { return }
            signerAt[slot] = 32 * (idCount + keys)
            keys += 1
        }
        for (index, note) in notes.enumerated() {
            recover(note.signature, over: noteDigests[index], slot: index)
        }
        for index in hashed {
            recover(
                transfers[index].signature, over: transferDigests[index]!,
                slot: notes.count + index)
        }
        hashes = batch.digests()
        coinIDs = (0..<idCount).map { CoinID(trusted: Array(hashes[32 * $0..<32 * ($0 + 1)])) }
    }
}
