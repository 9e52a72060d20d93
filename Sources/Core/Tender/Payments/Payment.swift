import Codecs
import Secp256k1

/// What the payer signs (EIP-712 `Payment`): every field the payee acts on. The coins are
/// named explicitly: a bundle's ancestors can hold older coins of the payee's, which must not
/// count again. Coin ids commit to the transfers and notes that created them, so the
/// signature covers the whole proof of what is paid.
public struct PaymentTerms: TypedStruct, Hashable {
    public static let primaryType = "Payment"

    public let requestID: Bytes32
    public let payee: Address
    public let asset: Address
    public let amount: Amount
    public let memo: String
    /// The coins, created by the payment's bundle and owned by the payee, that sum to `amount`.
    public let coins: [CoinID]

    public init(
        requestID: Bytes32, payee: Address, amount: Amount, asset: Address, memo: String = "",
        coins: [CoinID]
    ) {
        self.requestID = requestID
        self.payee = payee
        self.amount = amount
        self.asset = asset
        self.memo = memo
        self.coins = coins
    }

    public var structHash: [UInt8] {
        var coinsHasher = Keccak256()
        for coin in coins { coinsHasher.update(coin.bytes) }
        var hasher = Keccak256()
        hasher.update(TypeHashes.payment)
        hasher.update(requestID.bytes)
        hasher.updateWord(payee)
        hasher.updateWord(asset)
        hasher.updateWord(amount)
        hasher.update(Keccak256.hash(Array(memo.utf8)))
        hasher.update(coinsHasher.finalize())
        return hasher.finalize()
    }

    public var typedValue: [String: EIP712.Value] {
        [
            "requestId": .fixedBytes(requestID.bytes), "payee": .address(payee.bytes),
            "asset": .address(asset.bytes), "amount": .uint(amount), "memo": .string(memo),
            "coins": .array(coins.map { .fixedBytes($0.bytes) }),
        ]
    }
}

/// A payment: the terms signed by the payer (the owner of the inputs that pay, or the issuer
/// for an issuance) and the proof bundle the paid coins come from. Its digest is the EIP-712
/// digest of the terms: what the payee's receipt acknowledges.
public struct Payment: Hashable, Sendable {
    public let signed: Signed<PaymentTerms>
    public let bundle: ProofBundle

    public init(_ signed: Signed<PaymentTerms>, bundle: ProofBundle) {
        self.signed = signed
        self.bundle = bundle
    }

    /// Signs `terms` with the payer's key.
    public init(
        signing terms: PaymentTerms, bundle: ProofBundle, with key: PrivateKey, in domain: Domain
    ) throws(ProtocolError) {
        self.init(try Signed(signing: terms, with: key, in: domain), bundle: bundle)
    }

    public var terms: PaymentTerms { signed.message }
    public var signature: RecoverableSignature { signed.signature }
    public var requestID: Bytes32 { terms.requestID }
    public var payee: Address { terms.payee }
    public var amount: Amount { terms.amount }
    public var asset: Address { terms.asset }
    public var memo: String { terms.memo }
    public var coins: [CoinID] { terms.coins }

    /// `paymentDigest`: the EIP-712 digest of the signed terms.
    public func digest(in domain: Domain) -> Bytes32 { terms.digest(in: domain) }
}

/// A payment that passed every offline check, ready to be accepted by the payee's store.
public struct CheckedPayment: Sendable {
    public let payment: Payment
    public let verified: VerifiedBundle
    /// The coins the payee receives.
    public let credited: [Coin]
    /// The address that signed the terms: the owner of the inputs that pay (the issuer of an
    /// issuance).
    public let payer: Address
    public let digest: Bytes32
}
