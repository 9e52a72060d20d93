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

    /// The view `doubleSpentBy(coin, signer) -> bool`: a fraud proof showed `signer` signing
    /// two spends of `coin` (whether it owns the coin is the reader's to know).
    public static func doubleSpentBy(coin: Bytes32, signer: Address) -> [UInt8] {
        ABI.call("doubleSpentBy(bytes32,address)", [.bytes32(coin), .address(signer)])
    }

    /// The view `owed(redeemer, asset) -> uint256`: token payouts the token refused.
    public static func owed(redeemer: Address, asset: Address) -> [UInt8] {
        ABI.call("owed(address,address)", [.address(redeemer), .address(asset)])
    }

    /// The view `doubleSpender(coin) -> address` of vaults deployed before `doubleSpentBy`:
    /// the signer of the first fraud proof of the coin, whoever it was.
    public static func doubleSpender(coin: Bytes32) -> [UInt8] {
        ABI.call("doubleSpender(bytes32)", [.bytes32(coin)])
    }

    /// `claim(asset)`: pays the caller what `owed` holds for it in `asset`.
    public static func claim(asset: Address) -> [UInt8] {
        ABI.call("claim(address)", [.address(asset)])
    }

    /// `submitFraudProof(coin, first, second)`: two transfers of `coin` signed by its owner,
    /// each as `(bytes32[] inputs, (address owner, uint128 amount)[] outputs, r, s, v)`.
    public static func submitFraudProof(_ evidence: DoubleSpendEvidence) -> [UInt8] {
        ABI.call(
            submitFraudProofSignature,
            [
                .bytes32(evidence.coin), transferEvidence(evidence.first),
                transferEvidence(evidence.second),
            ])
    }

    public static let submitFraudProofSignature =
        "submitFraudProof(bytes32,\(transferEvidenceType),\(transferEvidenceType))"
    static let transferEvidenceType = "(bytes32[],(address,uint128)[],bytes32,bytes32,uint8)"

    static func transferEvidence(_ signed: SignedTransfer) -> ABIValue {
        let signature = signed.signature
        return .tuple([
            .array(signed.transfer.inputs.map { .bytes32($0) }),
            .array(
                signed.transfer.outputs.map {
                    .tuple([.address($0.owner), .uint(Wei($0.amount))])
                }),
            .bytes32(try! Bytes32(signature.r)), .bytes32(try! Bytes32(signature.s)),
            .uint(Wei(27 + Int(signature.recoveryID))),
        ])
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
        public static let payoutDeferred = ABI.eventTopic(
            "PayoutDeferred(address,address,uint256,uint256)")
    }
}
