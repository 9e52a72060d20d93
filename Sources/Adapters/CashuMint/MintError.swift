import Codecs

/// Why a request to a Cashu mint did not give an answer to use: the mint could not be reached,
/// did not answer in time, refused (its NUT-00 error), or answered something this client will
/// not trust. The mint's URL is shown without credentials, path or query (`RedactedURL`).
///
/// After `.timeout`, `.unreachable` or `.cancelled` a request that changes state (swap, mint,
/// melt) may still have been carried out: check the proofs (`checkState`), restore the outputs
/// (`restore`) or read the quote again before spending anything twice.
public struct MintError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No connection (refused, no route, DNS, TLS), or it broke before the answer.
        case unreachable(reason: String)
        /// No complete answer before the request's deadline.
        case timeout
        /// The mint answered a status other than 2xx: its NUT-00 `code` and `detail` when the
        /// body has them (error_codes.md).
        case refused(code: Int?, detail: String, httpStatus: Int)
        /// A 2xx answer that is not what the NUT promises; names the field.
        case malformedAnswer(String)
        /// Not sent: the request itself is one the mint must not see (a short keyset id).
        case invalidRequest(String)
        /// The waiting task was cancelled.
        case cancelled
    }

    public let kind: Kind
    /// The mint's URL as it may be shown.
    public let mint: String
    /// What was asked ("swap", "keys", "mint quote", …).
    public let operation: String

    public init(_ kind: Kind, mint: String, operation: String) {
        self.kind = kind
        self.mint = RedactedURL.text(mint)
        self.operation = operation
    }

    /// The mint's NUT-00 error code, when it refused with one.
    public var code: Int? {
        if case .refused(let code, _, _) = kind { code } else { nil }
    }

    /// The inputs were spent before (code 11001): they are worth nothing now.
    public var isAlreadySpent: Bool { code == 11001 }

    /// The inputs are held by a payment in flight (code 11002).
    public var isPending: Bool { code == 11002 }

    public var description: String {
        switch kind {
        case .unreachable(let reason):
            "cannot reach mint \(mint) for the \(operation): \(reason)"
        case .timeout: "mint \(mint) did not answer the \(operation) in time"
        case .refused(let code, let detail, let status):
            "mint \(mint) refused the \(operation): \(detail)"
                + (code.map { " (code \($0))" } ?? " (HTTP \(status))")
        case .malformedAnswer(let what):
            "mint \(mint) answered the \(operation) wrongly: \(what)"
        case .invalidRequest(let what): "\(operation) not sent to mint \(mint): \(what)"
        case .cancelled: "\(operation) at mint \(mint) cancelled"
        }
    }
}
