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
        case overLimit(String)
        /// A device or service the command needs is not there or not on (bluetoothd, a
        /// Bluetooth adapter, rfkill).
        case unavailable(String)
    }

    public let kind: Kind
    /// What else the person should know (what happened to the payment, what to do).
    public private(set) var note: String?
    /// How the amounts of a payment that cannot be made read (`need 9.00 DEV`); base units
    /// while nil. Set by the front end that knows the payment's asset (`denominated`).
    public private(set) var units: (denominations: Denominations, asset: Address)?

    public init(_ kind: Kind, note: String? = nil) {
        self.kind = kind
        self.note = note
    }

    /// The same failure, a refused payment's amounts written as `denominations` reads
    /// `asset`, the asset being paid (which the wallet refusing it does not know).
    public func denominated(_ denominations: Denominations, asset: Address) -> NodeError {
        var denominated = self
        denominated.units = (denominations, asset)
        return denominated
    }

    /// The same failure (its amounts read as before), with `note` instead of any earlier one.
    public func noting(_ note: String) -> NodeError {
        var noted = self
        noted.note = note
        return noted
    }

    /// An amount of the refused payment: `9.00 DEV`; a token's with its address, shortened
    /// (`2.50 USDC (0xA0b8…eB48)`: any contract may call itself USDC); `900 base units`.
    private func written(_ amount: Amount) -> String {
        guard let units else { return String(amount) }
        let denomination = units.denominations[units.asset]
        return units.asset != .zero && denomination.isKnown
            ? units.denominations.format(amount, of: units.asset) : denomination.format(amount)
    }

    public var description: String {
        let text =
            switch kind {
            case .rejected(let error):
                "rejected: \(error.description(amounts: written))"
            case .usage(let what), .missing(let what), .exists(let what), .busy(let what),
                .passphrase(let what), .permission(let what), .key(let what), .io(let what),
                .overLimit(let what), .unavailable(let what):
                what
            }
        return note.map { "\(text); \($0)" } ?? text
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
        }
    }

    static func rejected(_ kind: ProtocolError.Kind) -> NodeError {
        NodeError(.rejected(ProtocolError(kind)))
    }
}
