import Codecs
import Tender

/// A log as a receipt carries it, reduced to what settlement reads.
public struct VaultLog: Sendable, Hashable {
    public let address: Address
    public let topics: [Bytes32]
    public let data: [UInt8]

    public init(address: Address, topics: [Bytes32], data: [UInt8]) {
        self.address = address
        self.topics = topics
        self.data = data
    }
}

/// What the vault did with each coin of a mined `redeem()`, read from its events: every coin
/// a batch names gets exactly one `CoinRedeemed` or `CoinRejected` (Docs/VAULT.md, "Outcomes").
public struct RedeemOutcome: Sendable, Equatable {
    public enum Fate: Sendable, Equatable {
        case redeemed(Amount)
        /// Refused, with the vault's reason code and its reason (nil: a code this node does
        /// not know).
        case rejected(code: UInt8, reason: VaultRejection?)
    }

    /// A transfer of the batch that spent a coin the chain had seen spent otherwise.
    public struct DoubleSpend: Sendable, Equatable {
        public let coin: CoinID
        /// The transfer digest the vault recorded first (or the vault's REDEEMED marker).
        public let recorded: Bytes32
        public let presented: Bytes32
        public let owner: Address

        public init(coin: CoinID, recorded: Bytes32, presented: Bytes32, owner: Address) {
            self.coin = coin
            self.recorded = recorded
            self.presented = presented
            self.owner = owner
        }
    }

    /// A token payout the token refused (paused, blacklisting, out of gas): the coins are
    /// redeemed and the amount is owed to the redeemer by the vault, paid by its `claim`.
    public struct DeferredPayout: Sendable, Equatable {
        public let asset: Address
        public let amount: Amount
        /// All the vault owes the redeemer in `asset` now.
        public let owed: Amount

        public init(asset: Address, amount: Amount, owed: Amount) {
            self.asset = asset
            self.amount = amount
            self.owed = owed
        }
    }

    public var fates: [CoinID: Fate] = [:]
    public var doubleSpends: [DoubleSpend] = []
    public var deferredPayouts: [DeferredPayout] = []

    /// Reads the vault's events among `logs` (others, and other contracts', are skipped).
    public init(logs: [VaultLog], vault: Address) throws(SettlementError) {
        for log in logs where log.address == vault {
            guard let event = log.topics.first else { continue }
            switch event {
            case VaultEvents.coinRedeemed:
                let coin = try Self.topic(log, 1)
                fates[coin] = .redeemed(try Self.amount(log.data, word: 0))
            case VaultEvents.coinRejected:
                let coin = try Self.topic(log, 1)
                let code = try Self.amount(log.data, word: 0)
                guard code <= UInt8.max else {
                    throw SettlementError(.malformedLog("CoinRejected with reason \(code)"))
                }
                fates[coin] = .rejected(
                    code: UInt8(code), reason: VaultRejection(rawValue: UInt8(code)))
            case VaultEvents.doubleSpend:
                guard log.data.count == 64, log.topics.count == 3 else {
                    throw SettlementError(.malformedLog("DoubleSpend of \(log.data.count) bytes"))
                }
                doubleSpends.append(
                    DoubleSpend(
                        coin: try Self.topic(log, 1), recorded: try Self.word(log.data, 0),
                        presented: try Self.word(log.data, 1),
                        owner: try Self.address(log, 2, "DoubleSpend's owner")))
            case VaultEvents.payoutDeferred:
                guard log.data.count == 64, log.topics.count == 3 else {
                    throw SettlementError(
                        .malformedLog("PayoutDeferred of \(log.data.count) bytes"))
                }
                deferredPayouts.append(
                    DeferredPayout(
                        asset: try Self.address(log, 2, "PayoutDeferred's asset"),
                        amount: try Self.amount(log.data, word: 0),
                        owed: try Self.amount(log.data, word: 1)))
            default: continue
            }
        }
    }

    private static func topic(_ log: VaultLog, _ index: Int) throws(SettlementError) -> Bytes32 {
        guard log.topics.count > index else {
            throw SettlementError(.malformedLog("an event with \(log.topics.count) topics"))
        }
        return log.topics[index]
    }

    /// An indexed address.
    private static func address(
        _ log: VaultLog, _ index: Int, _ what: String
    ) throws(SettlementError) -> Address {
        let word = try topic(log, index).bytes
        guard word.prefix(12).allSatisfy({ $0 == 0 }),
            let address = try? Address(bytes: word.suffix(20))
        else { throw SettlementError(.malformedLog("\(what) is no address")) }
        return address
    }

    private static func word(_ data: [UInt8], _ index: Int) throws(SettlementError) -> Bytes32 {
        guard data.count >= 32 * (index + 1) else {
            throw SettlementError(.malformedLog("\(data.count) bytes of data, word \(index) asked"))
        }
        return try! Bytes32(data[(32 * index)..<(32 * index + 32)])
    }

    /// A uint256 word that must fit an amount (128 bits).
    private static func amount(_ data: [UInt8], word index: Int) throws(SettlementError) -> Amount {
        let bytes = try word(data, index).bytes
        guard bytes.prefix(16).allSatisfy({ $0 == 0 }) else {
            throw SettlementError(.malformedLog("a value over 128 bits"))
        }
        return bytes.suffix(16).reduce(Amount(0)) { $0 << 8 | Amount($1) }
    }
}

/// The vault's events this module reads (Contracts/Vault.vy), by their topic: the keccak-256
/// of the event's signature.
public enum VaultEvents {
    public static let coinRedeemed = topic("CoinRedeemed(bytes32,uint256)")
    public static let coinRejected = topic("CoinRejected(bytes32,uint8)")
    public static let doubleSpend = topic("DoubleSpend(bytes32,bytes32,bytes32,address)")
    public static let consumed = topic("Consumed(bytes32,bytes32)")
    public static let payoutDeferred = topic("PayoutDeferred(address,address,uint256,uint256)")

    static func topic(_ signature: String) -> Bytes32 {
        try! Bytes32(Keccak256.hash(Array(signature.utf8)))
    }
}
