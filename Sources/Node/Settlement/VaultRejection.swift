/// Why the vault refused a coin: `CoinRejected`'s reason code (Contracts/Vault.vy; Docs/VAULT.md,
/// "Outcomes").
public enum VaultRejection: UInt8, Sendable, CaseIterable {
    case zeroAmount = 1, badNoteSignature, badTransferSignature, emptyTransfer, duplicateInput
    case mixedInputs, doubleSpend, amountOverflow, conservationBroken, hopCapExceeded, expired
    case notOwner, spent, alreadyRedeemed, insufficientCollateral

    /// Its name, as `ProtocolError.code` names the same check offline.
    public var name: String {
        switch self {
        case .zeroAmount: "zero-amount"
        case .badNoteSignature: "bad-note-signature"
        case .badTransferSignature: "bad-transfer-signature"
        case .emptyTransfer: "empty-transfer"
        case .duplicateInput: "duplicate-input"
        case .mixedInputs: "mixed-inputs"
        case .doubleSpend: "double-spend"
        case .amountOverflow: "amount-overflow"
        case .conservationBroken: "conservation-broken"
        case .hopCapExceeded: "hop-cap-exceeded"
        case .expired: "expired"
        case .notOwner: "not-owner"
        case .spent: "spent"
        case .alreadyRedeemed: "already-redeemed"
        case .insufficientCollateral: "insufficient-collateral"
        }
    }
}
