import Tender

/// What stands at a domain's vault address on a chain: a Tender vault for that domain, a
/// contract of another kind (or a vault made for another chain or address), or nothing.
/// A vault's immutable `DOMAIN_SEPARATOR` is the EIP-712 domain its notes are signed in
/// (Docs/VAULT.md), so equal separators mean the same name, version, chain and address.
public enum VaultIdentity: Sendable, Equatable, CustomStringConvertible {
    case tenderVault
    case noContract
    case otherContract

    public var description: String {
        switch self {
        case .tenderVault: "a Tender vault"
        case .noContract: "no contract"
        case .otherContract: "a contract that is not a Tender vault for this chain and address"
        }
    }
}

extension VaultCalls {
    /// The view `DOMAIN_SEPARATOR() -> bytes32`.
    public static let domainSeparator = ABI.call("DOMAIN_SEPARATOR()")
}

extension EthereumRPC {
    /// Reads what stands at `domain.vault` at the head (this endpoint's chain is the caller's
    /// to check first). An endpoint that cannot be reached is an error; a contract whose call
    /// reverts, is refused (nodes word a revert differently) or answers something else is
    /// `.otherContract`. It guards against a mistaken address, not a hostile endpoint: any
    /// contract may return the separator.
    public func vaultIdentity(of domain: Domain) async throws(EVMError) -> VaultIdentity {
        guard try await !code(at: domain.vault).isEmpty else { return .noContract }
        let answer: [UInt8]
        do {
            answer = try await call(CallRequest(to: domain.vault, data: VaultCalls.domainSeparator))
        } catch {
            switch error {
            case .executionReverted, .rpc, .malformedResponse: return .otherContract
            default: throw error
            }
        }
        guard answer.count == 32, answer == domain.separator else { return .otherContract }
        return .tenderVault
    }
}
