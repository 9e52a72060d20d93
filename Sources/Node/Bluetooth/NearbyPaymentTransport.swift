import NodeKit
import Noise
import PaymentSession
import Synchronization

/// The payment exchange's transport over a Bluetooth payment session: `send` offers the
/// payment and waits for the payee's answer, which `nextReceipt` then hands over.
public final class NearbyPaymentTransport: PaymentTransport {
    private let connection: PayerConnection
    private let payeeKey: NoisePublicKey?
    private let evidence: [[UInt8]]
    private let answer = Mutex<Answer?>(nil)
    private let refusalReason = Mutex<String?>(nil)

    /// With `payeeKey` the session opens with the payment in its first message (Noise IK);
    /// without, `connection.hello()` must have come first.
    public init(connection: PayerConnection, payeeKey: NoisePublicKey?, evidence: [[UInt8]] = []) {
        self.connection = connection
        self.payeeKey = payeeKey
        self.evidence = evidence
    }

    public func prepare(_ envelope: [UInt8]) async throws(NodeError) {}

    public func send(_ envelope: [UInt8]) async throws(TransportFailure) {
        do {
            let answer = try await connection.offer(
                Offer(.payment(envelope), evidence: evidence), payeeKey: payeeKey)
            self.answer.withLock { $0 = answer }
        } catch {
            // Some of the offer may have reached the payee: in doubt until it answers.
            throw .mayHaveSent(NodeError(.io("\(error)")))
        }
    }

    public func nextReceipt() async throws(NodeError) -> [UInt8]? {
        let taken = answer.withLock { answer in
            defer { answer = nil }
            return answer
        }
        switch taken?.content {
        case .receipt(let receipt)?: return receipt
        case .refused(let code, let reason)?:
            refusalReason.withLock { $0 = "\(reason) (\(code))" }
            throw NodeError(.refusedByPayee(code: code, reason: reason))
        case .cashuTaken?, .cashuTerms?:
            throw NodeError(.io("the payee answered a payment as if it were a Cashu token"))
        case nil: return nil
        }
    }

    /// Why the payee refused the payment, when it did: an answer, so the payment is not in
    /// doubt (the payee has it and said no).
    public var refusal: String? { refusalReason.withLock { $0 } }

    /// The evidence the payee sent with its answer.
    public var payeeEvidence: [[UInt8]] { answer.withLock { $0?.evidence ?? [] } }

    public func finish() async {}
}
