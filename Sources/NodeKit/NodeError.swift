import Tender
import WalletStore

/// Errors of the node layer, each with an exit status for the CLI (documented in README).
public struct NodeError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        case file(String)
        case notInitialised(String)
        case alreadyInitialised(String)
        case passphrase(String)
        case key(String)
        case rejected(ProtocolError)
        case store(WalletStoreError)
        case usage(String)
    }

    public let kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .file(let what): what
        case .notInitialised(let path): "no wallet at \(path) (run `tender init`)"
        case .alreadyInitialised(let path): "a wallet already exists at \(path)"
        case .passphrase(let what): what
        case .key(let what): what
        case .rejected(let error): "rejected: \(error)"
        case .store(let error): error.description
        case .usage(let what): what
        }
    }

    /// Exit status: 64 usage, 65 rejected input, 66 missing file or wallet, 73 exists,
    /// 74 I/O or store, 77 key or passphrase.
    public var exitCode: Int32 {
        switch kind {
        case .usage: 64
        case .rejected: 65
        case .file, .notInitialised: 66
        case .alreadyInitialised: 73
        case .store(let error):
            if case .rejected = error.kind { 65 } else { 74 }
        case .passphrase, .key: 77
        }
    }

    /// A stable machine-readable code for `--json` error output.
    public var code: String {
        switch kind {
        case .file: "file"
        case .notInitialised: "not-initialised"
        case .alreadyInitialised: "already-initialised"
        case .passphrase: "passphrase"
        case .key: "key"
        case .rejected(let error): error.code
        case .store(let error):
            if case .rejected(let inner) = error.kind { inner.code } else { "store" }
        case .usage: "usage"
        }
    }
}
