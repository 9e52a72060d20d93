import Synchronization
import Tender

/// The requests the API issues, handed to the payee service that offers them over the air
/// (Bluetooth) while it runs. While one listens, each request carries its session key, so a
/// payer that scans the request's code can open the session in one round trip.
public final class RequestOffers: Sendable {
    private struct Listener {
        let sessionKey: [UInt8]
        let requests: AsyncStream<PaymentRequest>.Continuation
    }

    private let listener = Mutex<Listener?>(nil)

    public init() {}

    /// The requests issued from now on, until `close`; one listener at a time (a second
    /// replaces the first, whose stream ends).
    public func listen(sessionKey: [UInt8]) -> AsyncStream<PaymentRequest> {
        let (stream, continuation) = AsyncStream<PaymentRequest>.makeStream(
            bufferingPolicy: .bufferingNewest(1))
        let old = listener.withLock { current in
            let old = current
            current = Listener(sessionKey: sessionKey, requests: continuation)
            return old
        }
        old?.requests.finish()
        return stream
    }

    /// No listener any more: requests are issued without a session key.
    public func close() {
        listener.withLock { current in
            current?.requests.finish()
            current = nil
        }
    }

    /// The session key new requests carry; nil while nothing offers them over the air.
    var sessionKey: [UInt8]? { listener.withLock { $0?.sessionKey } }

    func issued(_ request: PaymentRequest) {
        listener.withLock { _ = $0?.requests.yield(request) }
    }
}
