import Tender

/// Where the requests the API issues go to be offered over the air, and the session key they
/// carry while something offers them: a payer that scans such a request's code opens the
/// session in one round trip. The node's runtime owns the one implementation.
public protocol RequestOffering: Sendable {
    /// The session key new requests carry; nil while nothing offers them over the air.
    func sessionKey() async -> [UInt8]?
    /// A request the API issued just now.
    func issued(_ request: PaymentRequest) async
}

/// Nothing offers requests over the air: they carry no session key.
public struct NoRequestOffering: RequestOffering {
    public init() {}
    public func sessionKey() async -> [UInt8]? { nil }
    public func issued(_ request: PaymentRequest) async {}
}
