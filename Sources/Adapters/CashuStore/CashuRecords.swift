import Cashu

/// A token taken or given, and what became of it.
public struct CashuPayment: Hashable, Sendable {
    public enum Direction: String, Hashable, Sendable {
        case incoming = "in"
        case outgoing = "out"
    }

    /// What became of an incoming token at its mint.
    public enum State: String, Hashable, Sendable {
        /// Taken offline, not swapped yet: the payer could still spend it first.
        case received
        /// Being swapped now (or a swap was cut short and is recovered at the next sync).
        case swapping
        /// Swapped: the mint gave this wallet fresh proofs for all of it.
        case swapped
        /// The mint refused part of it as spent elsewhere.
        case partRefused = "part-refused"
        /// The mint refused all of it as spent elsewhere.
        case refused
        /// Given to someone (outgoing).
        case sent
    }

    public let id: Int64
    public let direction: Direction
    public let mint: String
    public let unit: String
    public let amount: UInt64
    /// The token text as it came or went.
    public let token: String
    public let memo: String?
    /// Until when the proofs locked to this wallet are its alone (NUT-11), if any are locked.
    public let lockedUntil: UInt64?
    public let createdAt: UInt64
    public let updatedAt: UInt64
    public let state: State
    /// What the mint refused of it, and why (the first reason).
    public let refused: UInt64
    public let refusal: String?
    /// What of it was locked to this wallet's key when taken (the payer could not spend it).
    public let locked: UInt64
}

/// What a wallet holds at one mint in one unit.
public struct CashuBalance: Hashable, Sendable {
    public let mint: String
    public let unit: String
    /// This wallet's own proofs, swapped: spendable.
    public var spendable: UInt64 = 0
    /// Taken offline and not swapped yet: at risk until the next sync.
    public var atRisk: UInt64 = 0
    /// Taken offline locked to this wallet's key: the payer cannot spend it, until its
    /// locktime (swapped at the next sync).
    public var locked: UInt64 = 0
    /// Inputs of a swap or a melt in flight.
    public var swapping: UInt64 = 0
}

/// A swap whose outcome the wallet does not know yet: sent, or about to be, when it stopped.
public struct PendingSwap: Sendable {
    public let id: Int64
    public let mint: String
    public let inputs: [Proof]
    public let outputs: [PreparedOutput]
    /// Its inputs were taken offline (a sync's swap), not the wallet's own (a give's split).
    public var takenOffline = false
}

/// A mint this wallet knows.
public struct MintRecord: Hashable, Sendable {
    public let url: String
    public let addedAt: UInt64
    public let keysFetchedAt: UInt64?
}
