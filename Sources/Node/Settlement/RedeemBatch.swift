import Tender

/// The calldata of one `redeem()` call: the selector, then the packed batch the vault reads
/// (Docs/VAULT.md, "Calldata"). A batch merges the proof bundles of the coins it redeems:
/// notes and transfers several coins share are sent once, and every coin is named by its
/// index in the order the batch creates coins (the notes' coins first, then each transfer's
/// outputs in turn).
public struct RedeemBatch: Sendable {
    /// `redeem()`: keccak256("redeem()")[0..<4].
    public static let selector: [UInt8] = [0xbe, 0x04, 0x0f, 0xb0]
    /// The vault's caps per batch.
    public static let maxNotes = 2048
    public static let maxTransfers = 2048
    public static let maxInputsPerTransfer = 32
    public static let maxOutputsPerTransfer = 16

    public let notes: [SignedNote]
    public let transfers: [SignedTransfer]
    /// The coins to redeem, in the order the vault pays them.
    public let coins: [CoinID]
    public let calldata: [UInt8]

    /// Merges `bundles` (each in its own order: a transfer after the transfers that create
    /// its inputs) and names `coins`, each of which the merged proof must create.
    public init(
        bundles: [ProofBundle], coins: [CoinID], domain: Domain
    ) throws(SettlementError) {
        var notes: [SignedNote] = []
        var transfers: [SignedTransfer] = []
        var index: [CoinID: Int] = [:]
        var seenNotes: Set<CoinID> = []
        for bundle in bundles {
            for note in bundle.notes where seenNotes.insert(note.coinID(in: domain)).inserted {
                notes.append(note)
            }
        }
        for (position, note) in notes.enumerated() { index[note.coinID(in: domain)] = position }
        var created = notes.count
        var inputIndexes: [[Int]] = []
        var seenTransfers: Set<Bytes32> = []
        for bundle in bundles {
            for transfer in bundle.transfers {
                let digest = transfer.transfer.digest(in: domain)
                guard seenTransfers.insert(digest).inserted else { continue }
                var inputs: [Int] = []
                for input in transfer.transfer.inputs {
                    guard let at = index[input] else {
                        throw SettlementError(
                            .unprovable(
                                "transfer \(digest.short) spends \(input.short), which no note or earlier transfer of the batch creates"
                            ))
                    }
                    inputs.append(at)
                }
                guard (1...Self.maxInputsPerTransfer).contains(inputs.count),
                    (1...Self.maxOutputsPerTransfer).contains(transfer.transfer.outputs.count)
                else {
                    throw SettlementError(
                        .unprovable(
                            "transfer \(digest.short) has \(inputs.count) inputs and \(transfer.transfer.outputs.count) outputs; the vault takes 1…32 and 1…16"
                        ))
                }
                for coin in transfer.outputCoins(digest: digest) where index[coin] == nil {
                    index[coin] = created
                    created += 1
                }
                inputIndexes.append(inputs)
                transfers.append(transfer)
            }
        }
        guard notes.count <= Self.maxNotes, transfers.count <= Self.maxTransfers,
            created <= Int(UInt16.max), coins.count <= Int(UInt16.max)
        else {
            throw SettlementError(
                .unprovable(
                    "a batch of \(notes.count) notes and \(transfers.count) transfers is over the vault's caps"
                ))
        }
        var packed = Self.selector
        BigEndianBytes.append(UInt16(notes.count), to: &packed)
        BigEndianBytes.append(UInt16(transfers.count), to: &packed)
        BigEndianBytes.append(UInt16(coins.count), to: &packed)
        for note in notes { Self.pack(note, into: &packed) }
        for (transfer, inputs) in zip(transfers, inputIndexes) {
            Self.pack(transfer, inputs: inputs, into: &packed)
        }
        for coin in coins {
            guard let at = index[coin] else {
                throw SettlementError(.unprovable("coin \(coin.short) is not created by its proof"))
            }
            BigEndianBytes.append(UInt16(at), to: &packed)
        }
        self.notes = notes
        self.transfers = transfers
        self.coins = coins
        self.calldata = packed
    }

    /// 181 bytes: v, expiry, amount, issuer, asset, owner, serial, r, s.
    private static func pack(_ signed: SignedNote, into bytes: inout [UInt8]) {
        let note = signed.note
        bytes.append(27 + signed.signature.recoveryID)
        BigEndianBytes.append(note.expiry, to: &bytes)
        BigEndianBytes.append(note.amount, to: &bytes)
        bytes += note.issuer.bytes + note.asset.bytes + note.owner.bytes + note.serial.bytes
        bytes += signed.signature.r + signed.signature.s
    }

    /// v, input count, output count, input indexes (2 each), outputs (owner, amount), r, s.
    private static func pack(_ signed: SignedTransfer, inputs: [Int], into bytes: inout [UInt8]) {
        let transfer = signed.transfer
        bytes.append(27 + signed.signature.recoveryID)
        bytes.append(UInt8(inputs.count))
        bytes.append(UInt8(transfer.outputs.count))
        for input in inputs { BigEndianBytes.append(UInt16(input), to: &bytes) }
        for output in transfer.outputs {
            bytes += output.owner.bytes
            BigEndianBytes.append(output.amount, to: &bytes)
        }
        bytes += signed.signature.r + signed.signature.s
    }
}

/// Big-endian integers appended to a byte array.
enum BigEndianBytes {
    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }
}
