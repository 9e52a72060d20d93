import Tender

/// A static "pay me" code: who to pay, on which chain and vault, in which asset, and the
/// stall's name; the payer chooses the amount. Printed once and left on the counter, so it
/// carries no request id and no expiry.
public struct PayeeCode: Hashable, Sendable {
    public let payee: Address
    public let asset: Address
    public let domain: Domain
    /// The stall's name as shown to the payer (at most 64 bytes of UTF-8).
    public let name: String

    public static let maxNameBytes = 64

    public init(
        payee: Address, asset: Address = .zero, domain: Domain, name: String = ""
    )
        throws(PaymentCodeError)
    {
        guard name.utf8.count <= Self.maxNameBytes else {
            throw PaymentCodeError(
                .tooLarge, field: "name",
                "is \(name.utf8.count) bytes; at most \(Self.maxNameBytes)")
        }
        self.payee = payee
        self.asset = asset
        self.domain = domain
        self.name = name
    }
}

/// Either kind of `tender:` code.
public enum TenderCode: Hashable, Sendable {
    case request(PaymentRequest)
    case payee(PayeeCode)
}
