import Codecs
import EVM
import Foundation
import Secp256k1
import Tender
import TenderTestSupport

/// The public development mnemonic's account 0 (Rigs/dev-chain/README.md): funded on the dev chain.
let devKey = try! PrivateKey(
    bytes: Hex.decode("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"))
let devAccount = try! Address("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")

func bytes(_ hex: String) -> [UInt8] { try! Hex.decode(hex) }

/// Tests/EVMTests/Referee/evm_referee.py on the referee Python (eth-account, eth-abi).
enum EVMReferee {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Referee/evm_referee.py").path
    static let python = RefereePython.find(importing: "eth_account, eth_abi")
    /// Skipped without the referee on a developer machine, failing when `CI` is set.
    static var shouldRun: Bool { python != nil || RefereePython.isCI }

    static func run(_ command: String, _ payload: Any) throws -> Any {
        guard let python else {
            throw RefereeMissing()
        }
        let input = String(
            decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self)
        let (status, data, errors) = try RefereePython.run(
            python, script: script, [command, input])
        guard status == 0 else { throw RefereeFailed(message: errors) }
        return try JSONSerialization.jsonObject(with: data)
    }

    struct RefereeMissing: Error, CustomStringConvertible {
        var description: String { "no referee Python with eth_account: run bash Scripts/setup.sh" }
    }

    struct RefereeFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { "evm_referee.py failed: \(message)" }
    }
}

/// An in-memory `NonceStore`, for tests only (the sync engine keeps nonces in SQLite).
actor MemoryNonceStore: EVM.NonceStore {
    private var next: [String: UInt64] = [:]
    /// How long a read takes: a slow store lets concurrent sends read before either records.
    private let readDelay: Duration

    init(readDelay: Duration = .zero) { self.readDelay = readDelay }

    private func key(_ account: Address, _ chainID: UInt64) -> String { "\(chainID)/\(account)" }

    func nextNonce(for account: Address, chainID: UInt64) async throws -> UInt64? {
        let value = next[key(account, chainID)]
        if readDelay > .zero { try await Task.sleep(for: readDelay) }
        return value
    }

    func advance(to value: UInt64, for account: Address, chainID: UInt64) {
        next[key(account, chainID)] = max(next[key(account, chainID)] ?? 0, value)
    }

    func release(_ nonce: UInt64, for account: Address, chainID: UInt64) {
        if next[key(account, chainID)] == nonce + 1 { next[key(account, chainID)] = nonce }
    }
}
