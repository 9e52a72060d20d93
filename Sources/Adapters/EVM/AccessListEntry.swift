import Tender

/// An EIP-2930 access list entry: an address and the storage keys a transaction pre-warms.
public struct AccessListEntry: Sendable, Hashable {
    public var address: Address
    public var storageKeys: [Bytes32]

    public init(address: Address, storageKeys: [Bytes32]) {
        self.address = address
        self.storageKeys = storageKeys
    }

    var rlp: RLP { .list([.bytes(address.bytes), .list(storageKeys.map { .bytes($0.bytes) })]) }
}
