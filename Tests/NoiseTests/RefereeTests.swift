import Foundation
import TenderTestSupport
import Testing

@testable import Noise

/// Tender's Noise against the `noiseprotocol` package (Referee/README.md): whole XX and IK
/// sessions with each side in each role, so the two implementations must agree on every byte.
@Suite(
    .enabled(
        if: RefereePeer.shouldRun,
        "no Python referee: run `bash Scripts/setup.sh` or set TENDER_REFEREE_PYTHON"))
struct NoiseRefereeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var pattern: HandshakePattern
        var swiftRole: HandshakeRole

        var testDescription: String {
            "\(pattern.rawValue), Swift \(swiftRole == .initiator ? "initiates" : "responds")"
        }
    }

    static let cases = [HandshakePattern.xx, .ik].flatMap { pattern in
        [
            Case(pattern: pattern, swiftRole: .initiator),
            Case(pattern: pattern, swiftRole: .responder),
        ]
    }

    static let prologue = Array("tender/1".utf8)

    /// Transport payload sizes, alternately from the initiator and the responder: empty,
    /// small, and the largest a Noise transport message carries.
    static let transportSizes = [0, 1, 16, 1_000, 65_519, 65_519, 3, 0]

    /// The same bytes on both sides, distinct per message.
    static func payload(_ index: Int, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
    }

    /// Runs a whole session: the handshake messages, then `transportSizes` alternately from
    /// each side. Every payload must arrive unchanged, both sides must hold the same handshake
    /// hash and each the other's static key. Returns every message as it went on the wire.
    static func converse(
        _ pattern: HandshakePattern, initiator: any NoisePeer, responder: any NoisePeer,
        initiatorKey: NoisePrivateKey, responderKey: NoisePrivateKey
    ) throws -> [[UInt8]] {
        var wire = [[UInt8]]()
        let sizes =
            pattern.messages.indices.map { handshakePayload($0).count } + transportSizes
        for (index, size) in sizes.enumerated() {
            let (sender, receiver) =
                index % 2 == 0 ? (initiator, responder) : (responder, initiator)
            let payload =
                index < pattern.messages.count
                ? handshakePayload(index) : Self.payload(index, size: size)
            let message = try sender.send(payload)
            #expect(try receiver.receive(message) == payload, "message \(index + 1)")
            wire.append(message)
        }
        let hash = try initiator.handshakeHash()
        #expect(hash.count == 32)
        #expect(try responder.handshakeHash() == hash)
        #expect(try initiator.remoteStaticKey() == responderKey.publicKey.bytes)
        #expect(try responder.remoteStaticKey() == initiatorKey.publicKey.bytes)
        return wire + [hash]
    }

    /// The side `role` of `pattern`, in Swift or in Python, with these keys (nil ephemeral:
    /// a fresh one).
    static func peer(
        _ pattern: HandshakePattern, _ role: HandshakeRole, python: Bool,
        keys: (initiator: NoisePrivateKey, responder: NoisePrivateKey),
        ephemeral: NoisePrivateKey? = nil
    ) throws -> any NoisePeer {
        let local = role == .initiator ? keys.initiator : keys.responder
        let remote = pattern == .ik && role == .initiator ? keys.responder.publicKey : nil
        if python {
            return try RefereePeer(
                pattern, role, prologue: prologue, localStatic: local, remoteStaticKey: remote,
                ephemeral: ephemeral)
        }
        return SwiftPeer(
            try HandshakeState(
                pattern: pattern, role: role, prologue: prologue, localStatic: local,
                remoteStaticKey: remote, ephemeral: ephemeral))
    }

    /// The referee first replays the committed vectors itself.
    @Test func refereePassesTheVectors() throws {
        let python = try #require(RefereePeer.python, "no referee Python")
        let vectors = RefereePython.packageRoot
            .appendingPathComponent("Tests/NoiseTests/Vectors/noise_vectors.json").path
        let result = try RefereePython.run(
            python, script: RefereePeer.script, ["self-test", vectors])
        #expect(result.status == 0, "\(result.errors)")
        #expect(String(decoding: result.output, as: UTF8.self) == "ok\n")
    }

    /// Fresh static and ephemeral keys on both sides, as in use.
    @Test(arguments: cases)
    func sessionWithFreshKeys(_ test: Case) throws {
        let keys = (initiator: NoisePrivateKey(), responder: NoisePrivateKey())
        let swiftInitiates = test.swiftRole == .initiator
        let initiator = try Self.peer(test.pattern, .initiator, python: !swiftInitiates, keys: keys)
        let responder = try Self.peer(test.pattern, .responder, python: swiftInitiates, keys: keys)
        _ = try Self.converse(
            test.pattern, initiator: initiator, responder: responder,
            initiatorKey: keys.initiator, responderKey: keys.responder)
    }

    /// With every key fixed, Swift against Python, Python against Swift and Swift against
    /// itself put the very same bytes on the wire.
    @Test(arguments: [HandshakePattern.xx, .ik])
    func sameBytesOnTheWire(_ pattern: HandshakePattern) throws {
        let keys = (initiator: Keys.initiatorStatic, responder: Keys.responderStatic)
        func transcript(pythonInitiates: Bool, pythonResponds: Bool) throws -> [[UInt8]] {
            try Self.converse(
                pattern,
                initiator: Self.peer(
                    pattern, .initiator, python: pythonInitiates, keys: keys,
                    ephemeral: Keys.initiatorEphemeral),
                responder: Self.peer(
                    pattern, .responder, python: pythonResponds, keys: keys,
                    ephemeral: Keys.responderEphemeral),
                initiatorKey: keys.initiator, responderKey: keys.responder)
        }
        let swiftOnly = try transcript(pythonInitiates: false, pythonResponds: false)
        #expect(try transcript(pythonInitiates: false, pythonResponds: true) == swiftOnly)
        #expect(try transcript(pythonInitiates: true, pythonResponds: false) == swiftOnly)
    }

    /// A sealed SecureChannel message is plain Noise transport messages: the referee reads
    /// its records one by one, and Swift opens records the referee wrote by the record rule.
    @Test(arguments: [HandshakePattern.xx, .ik])
    func secureChannelRecordsArePlainNoiseMessages(_ pattern: HandshakePattern) throws {
        let keys = (initiator: NoisePrivateKey(), responder: NoisePrivateKey())
        let swift = try Self.peer(pattern, .initiator, python: false, keys: keys) as! SwiftPeer
        let python = try Self.peer(pattern, .responder, python: true, keys: keys)
        for index in pattern.messages.indices {
            let (sender, receiver): (any NoisePeer, any NoisePeer) =
                index % 2 == 0 ? (swift, python) : (python, swift)
            _ = try receiver.receive(sender.send(handshakePayload(index)))
        }
        var channel = swift.channel(maxMessageLength: 1 << 20)
        let message = Self.payload(1, size: 140_000)

        let sealed = try channel.seal(message)
        let records = stride(from: 0, to: sealed.count, by: 65_535).map {
            Array(sealed[$0..<min($0 + 65_535, sealed.count)])
        }
        #expect(records.map(\.count) == [65_535, 65_535, 140_000 - 2 * 65_519 + 16])
        #expect(try records.flatMap { try python.receive($0) } == message)

        var theirs = [UInt8]()
        for start in stride(from: 0, through: message.count, by: 65_519) {
            theirs += try python.send(Array(message[start..<min(start + 65_519, message.count)]))
        }
        #expect(try channel.open(theirs) == message)
    }
}
