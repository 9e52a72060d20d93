import Secp256k1

/// A typed struct with a signature over its EIP-712 digest in some domain.
public struct Signed<Message: TypedStruct & Hashable>: Hashable, Sendable {
    public let message: Message
    public let signature: RecoverableSignature

    public init(_ message: Message, signature: RecoverableSignature) {
        self.message = message
        self.signature = signature
    }

    public init(
        signing message: Message, with key: PrivateKey, in domain: Domain
    )
        throws(ProtocolError)
    {
        self.message = message
        do { signature = try key.sign(digest: message.digest(in: domain).bytes) } catch {
            // Unreachable for a valid key and a 32-byte digest; reported rather than trapped.
            throw ProtocolError(.malformed("signing failed: \(error)"))
        }
    }

    /// The address whose key made the signature, or nil when nothing recovers.
    public func signer(in domain: Domain) -> Address? {
        Tender.signer(of: message.digest(in: domain), signature: signature)
    }
}

public typealias SignedNote = Signed<Note>
public typealias SignedTransfer = Signed<Transfer>
public typealias SignedReceipt = Signed<Receipt>

extension Signed where Message == Note {
    public var note: Note { message }

    public init(note: Note, signature: RecoverableSignature) {
        self.init(note, signature: signature)
    }

    /// The genesis coin: `keccak256(noteDigest ‖ 0)`.
    public func coinID(in domain: Domain) -> CoinID {
        Tender.coinID(digest: note.digest(in: domain), index: 0)
    }
}

extension Signed where Message == Transfer {
    public var transfer: Transfer { message }

    public init(transfer: Transfer, signature: RecoverableSignature) {
        self.init(transfer, signature: signature)
    }

    /// Coin ids of every output, given the transfer's digest.
    public func outputCoins(digest: Bytes32) -> [CoinID] {
        transfer.outputs.indices.map { Tender.coinID(digest: digest, index: UInt32($0)) }
    }
}

extension Signed where Message == Receipt {
    public var receipt: Receipt { message }

    public init(receipt: Receipt, signature: RecoverableSignature) {
        self.init(receipt, signature: signature)
    }

    /// Checks the receipt was signed by `payee`.
    public func verify(payee: Address, in domain: Domain) throws(ProtocolError) {
        let recovered = signer(in: domain)
        guard recovered == payee else {
            throw ProtocolError(.badReceiptSignature(expected: payee, recovered: recovered))
        }
    }
}

/// The address that signed `digest`, or nil when nothing recovers.
func signer(of digest: Bytes32, signature: RecoverableSignature) -> Address? {
    guard let key = try? signature.recoverPublicKey(digest: digest.bytes) else { return nil }
    return Address(publicKey: key)
}
