import Foundation
import NodeKit
import WalletStore

extension NodeHost {
    /// The issuer's record of the notes it signed, beside its key (made on first use).
    public func issuanceLedger() throws(NodeError) -> IssuanceLedger {
        let path = directory.path + "/" + DataDirectory.Names.issued
        do {
            let ledger = try IssuanceLedger(path: path)
            chmod(path, 0o600)
            return ledger
        } catch { throw NodeError(.io("cannot open \(path): \(error)")) }
    }
}
