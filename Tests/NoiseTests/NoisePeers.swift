import Foundation
import TenderTestSupport

@testable import Noise

/// One end of a session the referee tests drive message by message: Tender's Swift code or
/// the Python referee.
protocol NoisePeer: AnyObject {
    /// The next handshake message carrying `payload`, or a transport message after the
    /// handshake.
    func send(_ payload: [UInt8]) throws -> [UInt8]
    /// The payload of the peer's next message.
    func receive(_ message: [UInt8]) throws -> [UInt8]
    /// After the handshake.
    func handshakeHash() throws -> [UInt8]
    /// The other side's static public key, after the handshake.
    func remoteStaticKey() throws -> [UInt8]
}

struct PeerFailure: Error, CustomStringConvertible {
    var description: String
}

/// Tender's side: a handshake, then its transport ciphers.
final class SwiftPeer: NoisePeer {
    private var handshake: HandshakeState?
    private var transport: HandshakeResult?
    /// Copied out at the end of the handshake: reading a non-copyable optional in a class
    /// would consume it.
    private var finished: (handshakeHash: [UInt8], remoteStaticKey: [UInt8])?

    init(_ handshake: consuming HandshakeState) { self.handshake = consume handshake }

    func send(_ payload: [UInt8]) throws -> [UInt8] {
        guard finished == nil else { return try transport!.sender.encrypt(payload) }
        let message = try handshake!.writeMessage(payload: payload)
        try finishIfComplete()
        return message
    }

    func receive(_ message: [UInt8]) throws -> [UInt8] {
        guard finished == nil else { return try transport!.receiver.decrypt(message) }
        let payload = try handshake!.readMessage(message)
        try finishIfComplete()
        return payload
    }

    func handshakeHash() throws -> [UInt8] { finished!.handshakeHash }
    func remoteStaticKey() throws -> [UInt8] { finished!.remoteStaticKey }

    /// The transport ciphers as a secure channel (the peer is spent).
    func channel(maxMessageLength: Int) -> SecureChannel {
        SecureChannel(transport.take()!, maxMessageLength: maxMessageLength)
    }

    private func finishIfComplete() throws {
        let state = handshake.take()!
        guard state.isComplete else {
            handshake = consume state
            return
        }
        let result = try state.finish()
        finished = (result.handshakeHash, result.remoteStaticKey.bytes)
        transport = consume result
    }
}

/// The Python referee (Referee/noise_referee.py, on the `noiseprotocol` package) as a peer:
/// one `session` process, commands and answers as hex lines on its stdin and stdout.
final class RefereePeer: NoisePeer {
    static let script = RefereePython.packageRoot
        .appendingPathComponent("Tests/NoiseTests/Referee/noise_referee.py").path
    static let python = RefereePython.find(importing: "noise.connection")

    /// Without the referee the tests are skipped on a developer machine (run
    /// Scripts/setup.sh), but in CI (`$CI` set) they run and fail.
    static var shouldRun: Bool { python != nil || RefereePython.isCI }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors: URL
    private var pending = [UInt8]()

    init(
        _ pattern: HandshakePattern, _ role: HandshakeRole, prologue: [UInt8],
        localStatic: NoisePrivateKey, remoteStaticKey: NoisePublicKey? = nil,
        ephemeral: NoisePrivateKey? = nil
    ) throws {
        guard let python = Self.python else {
            throw PeerFailure(
                description: "no referee Python: run `bash Scripts/setup.sh` or set"
                    + " TENDER_REFEREE_PYTHON (CI is set, so this fails instead of skipping)")
        }
        var arguments = [
            Self.script, "session", "--pattern", pattern.rawValue, "--role",
            role == .initiator ? "initiator" : "responder", "--prologue", hex(prologue),
            "--static", hex(Array(localStatic.rawRepresentation)),
        ]
        if let remoteStaticKey { arguments += ["--remote-static", hex(remoteStaticKey.bytes)] }
        if let ephemeral { arguments += ["--ephemeral", hex(Array(ephemeral.rawRepresentation))] }
        errors = FileManager.default.temporaryDirectory
            .appendingPathComponent("noise-referee-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        // A file, not a pipe, so a chatty referee cannot stall on a full pipe.
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: errors)
    }

    func send(_ payload: [UInt8]) throws -> [UInt8] { bytes(try ask("write \(hex(payload))")) }
    func receive(_ message: [UInt8]) throws -> [UInt8] { bytes(try ask("read \(hex(message))")) }
    func handshakeHash() throws -> [UInt8] { bytes(try ask("hash")) }
    func remoteStaticKey() throws -> [UInt8] { bytes(try ask("remote-static")) }

    /// Sends one command line and returns the answer line; "error …" answers throw.
    private func ask(_ command: String) throws -> String {
        try input.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8))
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let answer = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                guard !answer.hasPrefix("error ") else {
                    throw PeerFailure(description: "referee: \(answer)")
                }
                return answer
            }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                throw PeerFailure(description: "the referee ended without answering: \(stderr)")
            }
            pending += chunk
        }
    }
}
