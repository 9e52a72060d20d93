import NodeKit
import Tender

/// A payment whose link died with the payment out: in doubt until its payee answers again.
enum InDoubt {
    /// `error` as the payer is told it: the payment marked in doubt (when it is still pending
    /// or in doubt), or, when that write failed, both failures, so nobody is told a state
    /// the wallet does not hold.
    static func mark(
        _ id: Bytes32, in wallet: Wallet, now: UInt64, after error: NodeError
    ) -> NodeError {
        let state: OutgoingPaymentState
        do { state = try wallet.outgoingPayment(id).state } catch {
            return error.noting("its payment's state could not be read: \(error)")
        }
        guard state == .pending || state == .inDoubt else { return error }
        do { try wallet.linkLost(id, now: now) } catch {
            return error.noting(
                "the payment could not be marked in doubt (\(error)); it is \(state.rawValue): pay again near this payee to send the same payment again and record the receipt"
            )
        }
        return error.noting(
            "the payment is in doubt: pay again near this payee; the same payment is sent again and its receipt recorded"
        )
    }
}
