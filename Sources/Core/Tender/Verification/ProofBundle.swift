/// The notes and transfers that prove where coins came from. Transfers are ordered parents
/// first, so one pass in order can check every input against what came before it.
public struct ProofBundle: Hashable, Sendable {
    public var notes: [SignedNote]
    public var transfers: [SignedTransfer]

    public init(notes: [SignedNote] = [], transfers: [SignedTransfer] = []) {
        self.notes = notes
        self.transfers = transfers
    }

    /// The union of several bundles, each item once. Each input bundle is parents-first, so an
    /// item's parents are either already present or appended before it: the result is too.
    ///
    /// Items are the same when their signed content is, whatever the signature: a signer may
    /// sign one transfer twice (ECDSA nonces differ), and two proofs holding both forms must
    /// merge into one transfer, not a pair that looks like a double spend.
    public static func merging(_ bundles: some Sequence<ProofBundle>) -> ProofBundle {
        var result = ProofBundle()
        var seenNotes = Set<Note>()
        var seenTransfers = Set<Transfer>()
        for bundle in bundles {
            for note in bundle.notes where seenNotes.insert(note.message).inserted {
                result.notes.append(note)
            }
            for transfer in bundle.transfers where seenTransfers.insert(transfer.message).inserted {
                result.transfers.append(transfer)
            }
        }
        return result
    }
}

/// Caps that keep a proof's verification cost and size bounded.
public struct VerificationLimits: Sendable, Hashable {
    /// Transfers between a coin and its notes (Docs/PROTOCOL.md §3, `maxHops`).
    public var maxHops: Int
    public var maxNotes: Int
    public var maxTransfers: Int
    public var maxInputsPerTransfer: Int
    public var maxOutputsPerTransfer: Int
    /// Seconds a paid coin must still live when it changes hands, so the payee can settle it
    /// before it expires. The payer's coin selection and the payee's check use the same value.
    public var minimumCoinLifetime: UInt64

    public init(
        maxHops: Int = 8, maxNotes: Int = 256, maxTransfers: Int = 512,
        maxInputsPerTransfer: Int = 32, maxOutputsPerTransfer: Int = 16,
        minimumCoinLifetime: UInt64 = 3600
    ) {
        self.minimumCoinLifetime = minimumCoinLifetime
        self.maxHops = maxHops
        self.maxNotes = maxNotes
        self.maxTransfers = maxTransfers
        self.maxInputsPerTransfer = maxInputsPerTransfer
        self.maxOutputsPerTransfer = maxOutputsPerTransfer
    }

    public static let standard = VerificationLimits()
}
