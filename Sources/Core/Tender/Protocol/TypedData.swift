import Codecs

/// The canonical EIP-712 type strings of Docs/PROTOCOL.md §2. Changing one is a protocol version bump.
public enum TenderTypes {
    public static let domain =
        "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"
    public static let note =
        "Note(bytes32 serial,address issuer,address asset,uint128 amount,address owner,uint64 expiry)"
    public static let output = "Output(address owner,uint128 amount)"
    /// Referenced struct types follow the primary type, as EIP-712's encodeType requires.
    public static let transfer = "Transfer(bytes32[] inputs,Output[] outputs)" + output
    public static let payment =
        "Payment(bytes32 requestId,address payee,address asset,uint128 amount,string memo,bytes32[] coins)"
    public static let receipt = "Receipt(bytes32 requestId,bytes32 paymentDigest,uint64 time)"

    /// The same types as member lists, for the generic encoder (`inspect`, cross-checks).
    public static let all: EIP712.Types = [
        "EIP712Domain": [
            .init(name: "name", type: "string"), .init(name: "version", type: "string"),
            .init(name: "chainId", type: "uint256"),
            .init(name: "verifyingContract", type: "address"),
        ],
        "Note": [
            .init(name: "serial", type: "bytes32"), .init(name: "issuer", type: "address"),
            .init(name: "asset", type: "address"), .init(name: "amount", type: "uint128"),
            .init(name: "owner", type: "address"), .init(name: "expiry", type: "uint64"),
        ],
        "Output": [.init(name: "owner", type: "address"), .init(name: "amount", type: "uint128")],
        "Transfer": [
            .init(name: "inputs", type: "bytes32[]"), .init(name: "outputs", type: "Output[]"),
        ],
        "Payment": [
            .init(name: "requestId", type: "bytes32"), .init(name: "payee", type: "address"),
            .init(name: "asset", type: "address"), .init(name: "amount", type: "uint128"),
            .init(name: "memo", type: "string"), .init(name: "coins", type: "bytes32[]"),
        ],
        "Receipt": [
            .init(name: "requestId", type: "bytes32"),
            .init(name: "paymentDigest", type: "bytes32"),
            .init(name: "time", type: "uint64"),
        ],
    ]
}

/// `keccak256` of each type string, computed once.
enum TypeHashes {
    static let domain = Keccak256.hash(Array(TenderTypes.domain.utf8))
    static let note = Keccak256.hash(Array(TenderTypes.note.utf8))
    static let output = Keccak256.hash(Array(TenderTypes.output.utf8))
    static let transfer = Keccak256.hash(Array(TenderTypes.transfer.utf8))
    static let payment = Keccak256.hash(Array(TenderTypes.payment.utf8))
    static let receipt = Keccak256.hash(Array(TenderTypes.receipt.utf8))
}

extension Domain {
    /// The domain as EIP-712 typed-data values.
    public var typedValue: [String: EIP712.Value] {
        [
            "name": .string(Domain.name), "version": .string(Domain.version),
            "chainId": .uint(UInt128(chainID)), "verifyingContract": .address(vault.bytes),
        ]
    }
}

/// A struct Tender signs: its EIP-712 primary type, values and struct hash.
public protocol TypedStruct: Sendable {
    static var primaryType: String { get }
    /// The message as generic EIP-712 values (for display and cross-checks).
    var typedValue: [String: EIP712.Value] { get }
    /// `hashStruct(message)`, by the fast specialised encoder.
    var structHash: [UInt8] { get }
}

extension TypedStruct {
    public func digest(in domain: Domain) -> Bytes32 { domain.digest(structHash: structHash) }
}

/// `keccak256(digest ‖ uint32 index)`: the id of output `index` of a signed struct.
func coinID(digest: Bytes32, index: UInt32) -> CoinID {
    var hasher = Keccak256()
    updateCoinIDMessage(digest: digest, index: index, &hasher)
    return CoinID(trusted: hasher.finalize())
}

/// `digest ‖ uint32 index`, the index big-endian: what a coin id hashes.
func updateCoinIDMessage(digest: Bytes32, index: UInt32, _ hasher: inout some WordHashing) {
    hasher.updateBytes(digest.bytes)
    hasher.updateRaw(index.bigEndian)
}
