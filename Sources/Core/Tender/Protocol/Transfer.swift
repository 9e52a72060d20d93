import Codecs

/// One output of a transfer: `amount` to `owner`.
public struct Output: Hashable, Sendable {
    public let owner: Address
    public let amount: Amount

    public init(owner: Address, amount: Amount) {
        self.owner = owner
        self.amount = amount
    }

    var structHash: [UInt8] {
        var hasher = Keccak256()
        updateStruct(&hasher)
        return hasher.finalize()
    }

    /// `hashStruct(output)`'s message: the type hash, then each field as a word.
    func updateStruct(_ hasher: inout some WordHashing) {
        hasher.updateBytes(TypeHashes.output)
        hasher.updateWord(owner)
        hasher.updateWord(amount)
    }
}

/// An offline spend: consumes `inputs` (coins of one owner, one issuer, one asset) and creates
/// `outputs` that sum exactly to them. Output `i` becomes coin `keccak256(digest ‖ i)`.
public struct Transfer: TypedStruct, Hashable {
    public static let primaryType = "Transfer"

    public let inputs: [CoinID]
    public let outputs: [Output]

    public init(inputs: [CoinID], outputs: [Output]) {
        self.inputs = inputs
        self.outputs = outputs
    }

    public var structHash: [UInt8] {
        var inputsHasher = Keccak256()
        for input in inputs { inputsHasher.update(input.bytes) }
        var outputsHasher = Keccak256()
        for output in outputs { outputsHasher.update(output.structHash) }
        var hasher = Keccak256()
        hasher.update(TypeHashes.transfer)
        hasher.update(inputsHasher.finalize())
        hasher.update(outputsHasher.finalize())
        return hasher.finalize()
    }

    public var typedValue: [String: EIP712.Value] {
        [
            "inputs": .array(inputs.map { .fixedBytes($0.bytes) }),
            "outputs": .array(
                outputs.map {
                    .structure(["owner": .address($0.owner.bytes), "amount": .uint($0.amount)])
                }),
        ]
    }
}
