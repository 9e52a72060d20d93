import BigInt
import Tender

extension SignedTransaction {
    /// Reads a type-2 envelope back (what `raw` makes). Refuses other types, a wrong field
    /// count, non-minimal integers and addresses that are not 20 bytes.
    public init(raw: some Collection<UInt8>) throws(RLPError) {
        let bytes = Array(raw)
        guard bytes.first == Transaction.type else {
            throw RLPError(.invalidField("not an EIP-1559 (type 2) transaction"), offset: 0)
        }
        guard let items = try RLP.decode(bytes.dropFirst()).listItems else {
            throw RLPError(.expectedList, offset: 1)
        }
        guard items.count == 12 else {
            throw RLPError(
                .invalidField("a type 2 transaction has 12 fields, got \(items.count)"), offset: 1)
        }
        func wei(_ index: Int) throws(RLPError) -> Wei {
            Wei(bigEndian: try items[index].unsignedBytes())
        }
        guard let toBytes = items[5].byteString, toBytes.isEmpty || toBytes.count == 20 else {
            throw RLPError(.invalidField("'to' is neither empty nor 20 bytes"), offset: 1)
        }
        guard let data = items[7].byteString else { throw RLPError(.expectedString, offset: 1) }
        let accessList = try Self.accessList(items[8])
        let yParity = try items[9].uint64()
        guard yParity <= 1 else {
            throw RLPError(.invalidField("yParity is \(yParity)"), offset: 1)
        }
        let transaction = Transaction(
            chainID: try items[0].uint64(), nonce: try items[1].uint64(),
            fees: Fees(maxPriorityFeePerGas: try wei(2), maxFeePerGas: try wei(3)),
            gas: try items[4].uint64(), to: toBytes.isEmpty ? nil : try? Address(bytes: toBytes),
            value: try wei(6), data: data, accessList: accessList)
        self.init(transaction: transaction, yParity: UInt8(yParity), r: try wei(10), s: try wei(11))
    }

    private static func accessList(_ item: RLP) throws(RLPError) -> [AccessListEntry] {
        guard let entries = item.listItems else { throw RLPError(.expectedList, offset: 1) }
        var result: [AccessListEntry] = []
        for entry in entries {
            guard let pair = entry.listItems, pair.count == 2,
                let address = pair[0].byteString, address.count == 20,
                let keys = pair[1].listItems
            else { throw RLPError(.invalidField("malformed access list entry"), offset: 1) }
            var storageKeys: [Bytes32] = []
            for key in keys {
                guard let bytes = key.byteString, let slot = try? Bytes32(bytes) else {
                    throw RLPError(.invalidField("storage key is not 32 bytes"), offset: 1)
                }
                storageKeys.append(slot)
            }
            result.append(
                AccessListEntry(address: try! Address(bytes: address), storageKeys: storageKeys))
        }
        return result
    }
}
