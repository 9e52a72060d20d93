import ChainTestSupport
import Codecs
import EVM
import Foundation
import Secp256k1
import Tender
import TenderTestSupport

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
