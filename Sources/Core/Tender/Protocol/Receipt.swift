import Codecs

/// The payee's signed acknowledgement that it accepted the payment whose signed terms have
/// EIP-712 digest `paymentDigest`, for request `requestID`, at `time`.
public struct Receipt: TypedStruct, Hashable {
    public static let primaryType = "Receipt"

    public let requestID: Bytes32
    public let paymentDigest: Bytes32
    public let time: UInt64

    public init(requestID: Bytes32, paymentDigest: Bytes32, time: UInt64) {
        self.requestID = requestID
        self.paymentDigest = paymentDigest
        self.time = time
    }

    public var structHash: [UInt8] {
        var hasher = Keccak256()
        hasher.update(TypeHashes.receipt)
        hasher.update(requestID.bytes)
        hasher.update(paymentDigest.bytes)
        hasher.updateWord(time)
        return hasher.finalize()
    }

    public var typedValue: [String: EIP712.Value] {
        [
            "requestId": .fixedBytes(requestID.bytes),
            "paymentDigest": .fixedBytes(paymentDigest.bytes), "time": .uint(UInt128(time)),
        ]
    }
}
