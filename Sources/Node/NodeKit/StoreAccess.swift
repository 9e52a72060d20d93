import GRDB
import Tender
import WalletStore

/// The one place store failures become node errors: what the store says about payments and
/// coins keeps its meaning, a locked database is "busy", anything else is an I/O failure.
@discardableResult
package func storing<T>(_ body: () throws -> T) throws(NodeError) -> T {
    do { return try body() } catch let error as NodeError { throw error } catch let error
        as WalletStoreError
    { throw NodeError(error) } catch let error as DatabaseError {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            throw NodeError(.busy("the wallet is busy with another command; try again"))
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM:
            throw NodeError(.io("cannot write the wallet database: \(error.message ?? "\(error)")"))
        default:
            throw NodeError(.io("wallet database: \(error.message ?? "\(error)")"))
        }
    } catch {
        throw NodeError(.io("wallet database: \(error)"))
    }
}

extension NodeError {
    init(_ error: WalletStoreError) {
        switch error.kind {
        case .rejected(let protocolError): self.init(.rejected(protocolError))
        case .coinNotSpendable:
            // Two payments chose the same coin at once; the other one won it.
            self.init(
                .busy("another payment took a coin this one chose (\(error)); try again"))
        case .coinNotRedeemable:
            // Another sync run took the coin into its batch first.
            self.init(.busy("\(error); another sync may be running"))
        case .paymentNotFound(let id):
            self.init(.missing("this wallet made no payment with request id \(id.hex)"))
        case .paymentExists(let id):
            self.init(.exists("this wallet already paid request \(id.hex)"))
        case .notInitialised: self.init(.missing(error.description), resolvedBy: .initialise)
        case .overLimit(let refusal): self.init(.overLimit(refusal))
        case .identityMismatch, .corrupt: self.init(.io(error.description))
        // The engine asked for a move its records do not allow: nothing changed; its next pass
        // reads the records again.
        case .refusedTransition: self.init(.io(error.description))
        }
    }
}
