/// A node's refusal of a transaction its sender cannot pay for, as nodes word it (geth:
/// "insufficient funds for gas * price + value: address 0x… have H want N"; py-evm:
/// "Sender b'…' cannot afford txn gas N with account balance H", the sender a Python bytes
/// literal): the settlement engine and the vault's issuer commands both say it as "no gas".
extension EVMError {
    public var cannotAffordGas: Bool {
        guard case .rpc(_, let message, _) = self else { return false }
        let lowered = message.lowercased()
        return lowered.contains("insufficient funds") || lowered.contains("cannot afford")
    }

    /// What that refusal says the transaction needed, when it gives a figure.
    public var gasWanted: Wei? {
        guard cannotAffordGas, case .rpc(_, let message, _) = self else { return nil }
        let lowered = message.lowercased()
        for marker in ["want ", "txn gas "] {
            guard let range = lowered.range(of: marker) else { continue }
            let digits = lowered[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
            if let wanted = Wei(String(digits)) { return wanted }
        }
        return nil
    }
}
