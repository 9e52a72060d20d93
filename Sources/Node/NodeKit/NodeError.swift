import Tender

/// Why the node refused or could not do something. `kind` says what sort of failure it is
/// (front ends map it: the CLI to its exit statuses, the API to HTTP statuses), `code` is a
/// stable name for scripts, `description` a sentence for people that names what was wrong.
public struct NodeError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The request makes no sense as given (a payment file where a receipt belongs).
        case usage(String)
        /// Input the protocol's rules refuse (bad signature, double spend, expired, …).
        case rejected(ProtocolError)
        /// A file, wallet, key or payment that is not there.
        case missing(String)
        /// Something that is there already (a wallet, a file, a payment for the request).
        case exists(String)
        /// Another command holds the wallet right now: trying again will do.
        case busy(String)
        case passphrase(String)
        /// The system refused access (a camera or device this user may not open).
        case permission(String)
        /// A key file that cannot be used (malformed, unreadable, wrong wallet).
        case key(String)
        /// The disk or the database failed; nothing was changed.
        case io(String)
        /// A payment the node would make on its own that its spending limits do not allow.
        case overLimit(SpendingRefusal)
        /// A device or service the command needs is not there or not on (bluetoothd, a
        /// Bluetooth adapter, rfkill).
        case unavailable(String)
        /// The chain refused a transaction or call (it reverted): nothing changed on chain.
        case refusedOnChain(String)
        /// The payee answered a payment with a refusal: its code and reason, as it sent them
        /// (its word, not checked here); the payee has the payment and said no.
        case refusedByPayee(code: String, reason: String)
        /// `account` cannot pay the gas of a transaction on chain `chainID`: it may cost up to
        /// `needed` of the chain's coin and the account holds `held`. Nothing was sent.
        case noGas(account: Address, chainID: UInt64, needed: Amount, held: Amount)
        /// Ecash (a Cashu token or proof) that its rules, or its mint, refuse: a stable code
        /// and the reason, naming the field or the proof.
        case refusedEcash(code: String, reason: String)
    }

    public let kind: Kind
    /// What else the person should know (what happened to the payment, what to do).
    public private(set) var note: String?
    /// The step that resolves it, named by each front end in its own terms.
    public let resolvedBy: ResolvingStep?

    public init(_ kind: Kind, note: String? = nil, resolvedBy: ResolvingStep? = nil) {
        self.kind = kind
        self.note = note
        self.resolvedBy = resolvedBy
    }

    /// The same failure (its amounts read as before), with `note` instead of any earlier one.
    public func noting(_ note: String) -> NodeError {
        var noted = self
        noted.note = note
        return noted
    }

    public var description: String { description(in: PlainWording()) }

    /// The sentence in a front end's `wording` (amounts in their units, the resolving step in
    /// its terms).
    public func description(in wording: some ErrorWording) -> String {
        var text =
            switch kind {
            case .rejected(let error):
                "rejected: \(error.description(in: wording))"
            case .overLimit(let refusal): refusal.description(in: wording)
            case .usage(let what), .missing(let what), .exists(let what), .busy(let what),
                .passphrase(let what), .permission(let what), .key(let what), .io(let what),
                .unavailable(let what), .refusedOnChain(let what):
                what
            case .refusedByPayee(let code, let reason):
                "the payee refused the payment: \(reason) (\(code))"
            case .refusedEcash(_, let reason): "rejected: \(reason)"
            case .noGas(let account, let chainID, let needed, let held):
                "no gas: \(account) holds \(wording.amount(held, of: .zero)) on chain \(chainID), and the transaction may cost up to \(wording.amount(needed, of: .zero)); send the chain's coin to that address"
            }
        if let note { text += "; \(note)" }
        if let resolvedBy { text += " (\(wording.step(resolvedBy)))" }
        return text
    }

    /// A stable machine-readable code: the protocol's own for rejections.
    public var code: String {
        switch kind {
        case .usage: "usage"
        case .rejected(let error): error.code
        case .missing: "not-found"
        case .exists: "exists"
        case .busy: "busy"
        case .passphrase: "passphrase"
        case .permission: "permission"
        case .key: "key"
        case .io: "io"
        case .overLimit: "over-limit"
        case .unavailable: "unavailable"
        case .refusedOnChain: "reverted"
        case .refusedByPayee: "refused-by-payee"
        case .noGas: "no-gas"
        case .refusedEcash(let code, _): code
        }
    }

    static func rejected(_ kind: ProtocolError.Kind) -> NodeError {
        NodeError(.rejected(ProtocolError(kind)))
    }
}
