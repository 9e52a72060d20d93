import Tender

/// Calldata of Contracts/Vault.vy's functions and the topics of its events (Docs/VAULT.md).
public enum VaultCalls {
    /// `deposit(asset, amount)`: the zero address is the native coin (send `amount` as value).
    public static func deposit(asset: Address, amount: Wei) -> [UInt8] {
        ABI.call("deposit(address,uint256)", [.address(asset), .uint(amount)])
    }

    public static func extendLock(until: UInt64) -> [UInt8] {
        ABI.call("extendLock(uint256)", [.uint(Wei(until))])
    }

    public static func withdraw(asset: Address, amount: Wei) -> [UInt8] {
        ABI.call("withdraw(address,uint256)", [.address(asset), .uint(amount)])
    }

    /// `redeem()` reads its batch from msg.data: the selector, then the packed batch as is
    /// (Docs/VAULT.md, "Calldata"), not ABI-encoded `bytes`.
    public static func redeem(packedBatch: [UInt8]) -> [UInt8] {
        ABI.selector("redeem()") + packedBatch
    }

    /// The view `collateral(issuer, asset) -> uint256`.
    public static func collateral(issuer: Address, asset: Address) -> [UInt8] {
        ABI.call("collateral(address,address)", [.address(issuer), .address(asset)])
    }

    /// The view `consumed(coin) -> bytes32`: the transfer that spent the coin on chain.
    public static func consumed(coin: Bytes32) -> [UInt8] {
        ABI.call("consumed(bytes32)", [.bytes32(coin)])
    }

    /// The view `lockedUntil(issuer) -> uint256`.
    public static func lockedUntil(issuer: Address) -> [UInt8] {
        ABI.call("lockedUntil(address)", [.address(issuer)])
    }

    public enum Event {
        public static let deposited = ABI.eventTopic("Deposited(address,address,uint256,uint256)")
        public static let withdrawn = ABI.eventTopic("Withdrawn(address,address,uint256,uint256)")
        public static let lockExtended = ABI.eventTopic("LockExtended(address,uint256)")
        public static let coinRedeemed = ABI.eventTopic("CoinRedeemed(bytes32,uint256)")
        public static let coinRejected = ABI.eventTopic("CoinRejected(bytes32,uint8)")
        public static let payout = ABI.eventTopic("Payout(address,address,address,uint256)")
    }
}
