import BigInt

/// Amounts of the chain's native coin and fees, in wei: EVM words are 256 bits.
public typealias Wei = BigUInt

extension BigUInt {
    /// 10^9 wei.
    public static let gwei: BigUInt = 1_000_000_000

    /// Big-endian bytes with no leading zeros (empty for zero): RLP's and JSON-RPC's form.
    var minimalBytes: [UInt8] { Array(serialize()) }

    /// Exactly 32 big-endian bytes; nil above 2^256 - 1.
    var word: [UInt8]? {
        let bytes = minimalBytes
        guard bytes.count <= 32 else { return nil }
        return [UInt8](repeating: 0, count: 32 - bytes.count) + bytes
    }

    init(bigEndian bytes: some Collection<UInt8>) {
        self = bytes.reduce(BigUInt(0)) { $0 << 8 | BigUInt($1) }
    }

    /// `"0x"` and lowercase hex with no leading zeros: a JSON-RPC quantity.
    var quantity: String { "0x" + String(self, radix: 16) }
}

extension UInt64 {
    var quantity: String { "0x" + String(self, radix: 16) }
}
