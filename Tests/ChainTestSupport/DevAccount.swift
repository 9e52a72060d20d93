import Codecs
import EVM
import Secp256k1
import Tender

/// The public development mnemonic's account 0 (Rigs/dev-chain/README.md): funded on the dev chain.
public let devKey = try! PrivateKey(
    bytes: Hex.decode("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"))
public let devAccount = try! Address("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")

/// An in-memory `NonceStore`, for tests only (the sync engine keeps nonces in SQLite).
public actor MemoryNonceStore: EVM.NonceStore {
    private var next: [String: UInt64] = [:]
    /// How long a read takes: a slow store lets concurrent sends read before either records.
    private let readDelay: Duration

    public init(readDelay: Duration = .zero) { self.readDelay = readDelay }

    private func key(_ account: Address, _ chainID: UInt64) -> String { "\(chainID)/\(account)" }

    public func nextNonce(for account: Address, chainID: UInt64) async throws -> UInt64? {
        let value = next[key(account, chainID)]
        if readDelay > .zero { try await Task.sleep(for: readDelay) }
        return value
    }

    public func advance(to value: UInt64, for account: Address, chainID: UInt64) {
        next[key(account, chainID)] = max(next[key(account, chainID)] ?? 0, value)
    }

    public func release(_ nonce: UInt64, for account: Address, chainID: UInt64) {
        if next[key(account, chainID)] == nonce + 1 { next[key(account, chainID)] = nonce }
    }
}
