import Tender

/// Why the API refuses what a caller sent, before anything is done with it.
public enum BodyRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body or a field is not what the route takes (400), in words that name it.
    case badRequest(String)
    /// A scanned request the protocol refuses (expired, another chain): the wallet's error.
    case rejected(ProtocolError)

    public var description: String {
        switch self {
        case .badRequest(let reason): reason
        case .rejected(let error): error.description
        }
    }
}
