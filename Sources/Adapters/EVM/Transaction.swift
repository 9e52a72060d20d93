import BigInt
import Codecs
import Secp256k1
import Tender

/// An EIP-1559 (type 2) transaction before it is signed. `to == nil` creates a contract.
public struct Transaction: Sendable, Hashable {
    /// EIP-2718's type byte for EIP-1559 transactions.
    public static let type: UInt8 = 0x02

    public var chainID: UInt64
    public var nonce: UInt64
    public var maxPriorityFeePerGas: Wei
    public var maxFeePerGas: Wei
    public var gas: UInt64
    public var to: Address?
    public var value: Wei
    public var data: [UInt8]
    public var accessList: [AccessListEntry]

    public init(
        chainID: UInt64, nonce: UInt64, fees: Fees, gas: UInt64, to: Address?,
        value: Wei = 0, data: [UInt8] = [], accessList: [AccessListEntry] = []
    ) {
        self.chainID = chainID
        self.nonce = nonce
        self.maxPriorityFeePerGas = fees.maxPriorityFeePerGas
        self.maxFeePerGas = fees.maxFeePerGas
        self.gas = gas
        self.to = to
        self.value = value
        self.data = data
        self.accessList = accessList
    }

    public var fees: Fees {
        Fees(maxPriorityFeePerGas: maxPriorityFeePerGas, maxFeePerGas: maxFeePerGas)
    }

    /// The same transaction (same nonce) with fees a node accepts in its place: each field at
    /// least 10 % above this one's and at least `proposed`'s, the cap never below the tip.
    public func replacement(proposed: Fees) -> Transaction {
        var replacement = self
        let fees = self.fees.bumped.atLeast(proposed)
        replacement.maxPriorityFeePerGas = fees.maxPriorityFeePerGas
        replacement.maxFeePerGas = Swift.max(fees.maxFeePerGas, fees.maxPriorityFeePerGas)
        return replacement
    }

    /// The nine payload fields in EIP-1559's order.
    var fields: [RLP] {
        [
            .uint(chainID), .uint(nonce), .uint(maxPriorityFeePerGas), .uint(maxFeePerGas),
            .uint(gas), .bytes(to?.bytes ?? []), .uint(value), .bytes(data),
            .list(accessList.map(\.rlp)),
        ]
    }

    /// What the sender signs: keccak256(0x02 ‖ rlp(fields)).
    public var signingHash: [UInt8] { Keccak256.hash([Self.type] + RLP.list(fields).encoded) }

    public func signed(with key: PrivateKey) throws(Secp256k1Error) -> SignedTransaction {
        let signature = try key.sign(digest: signingHash)
        return SignedTransaction(
            transaction: self, yParity: signature.recoveryID,
            r: Wei(bigEndian: signature.r), s: Wei(bigEndian: signature.s))
    }
}

/// A signed type-2 transaction: what `eth_sendRawTransaction` takes.
public struct SignedTransaction: Sendable, Hashable {
    public let transaction: Transaction
    public let yParity: UInt8
    public let r: Wei
    public let s: Wei

    public init(transaction: Transaction, yParity: UInt8, r: Wei, s: Wei) {
        self.transaction = transaction
        self.yParity = yParity
        self.r = r
        self.s = s
    }

    /// The EIP-2718 envelope: 0x02 ‖ rlp(fields ‖ yParity ‖ r ‖ s).
    public var raw: [UInt8] {
        [Transaction.type]
            + RLP.list(transaction.fields + [.uint(yParity), .uint(r), .uint(s)]).encoded
    }

    /// The transaction hash: keccak256 of the envelope.
    public var hash: Bytes32 { try! Bytes32(Keccak256.hash(raw)) }

    /// The address that signed it, recovered from the signature.
    public func sender() throws(Secp256k1Error) -> Address {
        guard let rWord = r.word, let sWord = s.word else { throw .malformedSignature }
        let signature = try RecoverableSignature(bytes: rWord + sWord + [yParity])
        return Address(publicKey: try signature.recoverPublicKey(digest: transaction.signingHash))
    }
}
