import Foundation
import TenderTestSupport
import Testing

@testable import Noise

/// The published Noise vectors for XX and IK (Vectors/README.md names their sources).
struct NoiseVector: Decodable, Sendable, CustomTestStringConvertible {
    struct Message: Decodable, Sendable {
        var payload: String
        var ciphertext: String
    }

    var source: String
    var protocolName: String
    var initPrologue: String
    var initStatic: String
    var initEphemeral: String
    var initRemoteStatic: String?
    var respPrologue: String
    var respStatic: String
    var respEphemeral: String
    var handshakeHash: String?
    var messages: [Message]

    var testDescription: String { "\(source) \(protocolName)" }

    var pattern: HandshakePattern {
        switch protocolName {
        case HandshakePattern.xx.protocolName: .xx
        case HandshakePattern.ik.protocolName: .ik
        default: preconditionFailure("an unexpected protocol \(protocolName)")
        }
    }

    static let all: [NoiseVector] = {
        struct File: Decodable { var vectors: [NoiseVector] }
        let url = RefereePython.packageRoot
            .appendingPathComponent("Tests/NoiseTests/Vectors/noise_vectors.json")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try! decoder.decode(File.self, from: Data(contentsOf: url)).vectors
    }()
}

@Suite struct KnownAnswerTests {
    @Test func theVectorFileHasBothPatternsFromBothSources() {
        let names = Set(NoiseVector.all.map(\.testDescription))
        #expect(
            names == [
                "cacophony Noise_XX_25519_ChaChaPoly_SHA256",
                "cacophony Noise_IK_25519_ChaChaPoly_SHA256",
                "snow Noise_XX_25519_ChaChaPoly_SHA256",
                "snow Noise_IK_25519_ChaChaPoly_SHA256",
            ])
        #expect(
            NoiseVector.all.filter { $0.handshakeHash != nil }.map(\.source) == [
                "cacophony", "cacophony",
            ])
    }

    /// Both sides replay the vector: every handshake and transport message byte for byte,
    /// every payload read back, the static keys learned, and the handshake hash.
    @Test(arguments: NoiseVector.all)
    func replay(_ vector: NoiseVector) throws {
        let pattern = vector.pattern
        var initiator = try HandshakeState(
            pattern: pattern, role: .initiator, prologue: bytes(vector.initPrologue),
            localStatic: privateKey(vector.initStatic),
            remoteStaticKey: vector.initRemoteStatic.map(publicKey),
            ephemeral: privateKey(vector.initEphemeral))
        var responder = try HandshakeState(
            pattern: pattern, role: .responder, prologue: bytes(vector.respPrologue),
            localStatic: privateKey(vector.respStatic), remoteStaticKey: nil,
            ephemeral: privateKey(vector.respEphemeral))
        let handshakeLength = pattern.messages.count
        #expect(vector.messages.count > handshakeLength, "the vector has transport messages")

        for (index, expected) in vector.messages.prefix(handshakeLength).enumerated() {
            let (message, payload) = try deliver(
                index, &initiator, &responder, payload: bytes(expected.payload))
            #expect(hex(message) == expected.ciphertext, "handshake message \(index + 1)")
            #expect(hex(payload) == expected.payload, "handshake payload \(index + 1)")
        }
        #expect(initiator.isComplete && responder.isComplete)
        if let hash = vector.handshakeHash {
            #expect(initiator.handshakeHash.map(hex) == hash)
            #expect(responder.handshakeHash.map(hex) == hash)
        }

        var initiatorSide = try initiator.finish()
        var responderSide = try responder.finish()
        #expect(
            initiatorSide.remoteStaticKey.bytes == privateKey(vector.respStatic).publicKey.bytes)
        #expect(
            responderSide.remoteStaticKey.bytes == privateKey(vector.initStatic).publicKey.bytes)

        for (index, expected) in vector.messages.enumerated().dropFirst(handshakeLength) {
            let payload = bytes(expected.payload)
            let message: [UInt8]
            let read: [UInt8]
            if index % 2 == 0 {
                message = try initiatorSide.sender.encrypt(payload)
                read = try responderSide.receiver.decrypt(message)
            } else {
                message = try responderSide.sender.encrypt(payload)
                read = try initiatorSide.receiver.decrypt(message)
            }
            #expect(hex(message) == expected.ciphertext, "transport message \(index + 1)")
            #expect(read == payload, "transport payload \(index + 1)")
        }
    }
}
