import Codecs
import Crypto
import Testing

@testable import Noise

/// Hex text (either case, no prefix) as bytes; the tests' own constants, so a typo traps.
func bytes(_ text: String) -> [UInt8] { try! Hex.decode(text) }

func hex(_ data: [UInt8]) -> String { Hex.encode(data, prefix: false) }

func privateKey(_ text: String) -> NoisePrivateKey {
    try! NoisePrivateKey(rawRepresentation: bytes(text))
}

func publicKey(_ text: String) -> NoisePublicKey {
    try! NoisePublicKey(rawRepresentation: bytes(text))
}

extension NoisePublicKey {
    var bytes: [UInt8] { Array(rawRepresentation) }
}

/// Fixed keys, so every run (and every tampered run) makes the same messages.
enum Keys {
    static let initiatorStatic = privateKey(String(repeating: "11", count: 32))
    static let responderStatic = privateKey(String(repeating: "22", count: 32))
    static let initiatorEphemeral = privateKey(String(repeating: "33", count: 32))
    static let responderEphemeral = privateKey(String(repeating: "44", count: 32))
    static let stranger = privateKey(String(repeating: "55", count: 32))
}

/// The initiator of `pattern` with the fixed keys (IK: knowing `responderKey`).
func makeInitiator(
    _ pattern: HandshakePattern, prologue: [UInt8] = Array("tender/1".utf8),
    responderKey: NoisePublicKey = Keys.responderStatic.publicKey
) throws(NoiseError) -> HandshakeState {
    try HandshakeState(
        pattern: pattern, role: .initiator, prologue: prologue,
        localStatic: Keys.initiatorStatic,
        remoteStaticKey: pattern == .ik ? responderKey : nil,
        ephemeral: Keys.initiatorEphemeral)
}

func makeResponder(
    _ pattern: HandshakePattern, prologue: [UInt8] = Array("tender/1".utf8)
) throws(NoiseError) -> HandshakeState {
    try HandshakeState(
        pattern: pattern, role: .responder, prologue: prologue,
        localStatic: Keys.responderStatic, remoteStaticKey: nil,
        ephemeral: Keys.responderEphemeral)
}

/// Handshake message `index` (0-based) from whichever side writes it to the other, `change`
/// applied on the way; the payload read.
func deliver(
    _ index: Int, _ initiator: inout HandshakeState, _ responder: inout HandshakeState,
    payload: [UInt8], change: ([UInt8]) -> [UInt8] = { $0 }
) throws(NoiseError) -> (message: [UInt8], payload: [UInt8]) {
    if index % 2 == 0 {
        let message = try initiator.writeMessage(payload: payload)
        return (message, try responder.readMessage(change(message)))
    }
    let message = try responder.writeMessage(payload: payload)
    return (message, try initiator.readMessage(change(message)))
}

/// A payload that names its message, so a payload delivered to the wrong place shows.
func handshakePayload(_ index: Int) -> [UInt8] { Array("payload \(index)".utf8) }

/// Runs every handshake message with `handshakePayload`; the messages written.
@discardableResult
func handshake(
    _ initiator: inout HandshakeState, _ responder: inout HandshakeState
) throws(NoiseError) -> [[UInt8]] {
    var messages = [[UInt8]]()
    for index in initiator.pattern.messages.indices {
        let (message, payload) = try deliver(
            index, &initiator, &responder, payload: handshakePayload(index))
        precondition(payload == handshakePayload(index), "a payload changed on the way")
        messages.append(message)
    }
    return messages
}

/// A pair of channels on fixed transport keys, without a handshake (cheap, for sweeps).
func channelPair(maxMessageLength: Int = 1 << 20) -> (SecureChannelBox, SecureChannelBox) {
    let toResponder = SymmetricKey(data: [UInt8](repeating: 0xA1, count: 32))
    let toInitiator = SymmetricKey(data: [UInt8](repeating: 0xB2, count: 32))
    let initiator = HandshakeResult(
        sender: CipherState(key: toResponder), receiver: CipherState(key: toInitiator),
        handshakeHash: [], remoteStaticKey: Keys.responderStatic.publicKey)
    let responder = HandshakeResult(
        sender: CipherState(key: toInitiator), receiver: CipherState(key: toResponder),
        handshakeHash: [], remoteStaticKey: Keys.initiatorStatic.publicKey)
    return (
        SecureChannelBox(SecureChannel(initiator, maxMessageLength: maxMessageLength)),
        SecureChannelBox(SecureChannel(responder, maxMessageLength: maxMessageLength))
    )
}

/// A class around a channel, so a pair can travel in a tuple (tuples cannot hold
/// non-copyable values). Test-only; never shared between tasks.
final class SecureChannelBox {
    var channel: SecureChannel
    init(_ channel: consuming SecureChannel) { self.channel = channel }
}

/// `finish()` must throw `expected` (a call `#expect(throws:)` cannot make: it consumes).
func expectFinishFails(
    _ state: consuming HandshakeState, with expected: NoiseError,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        _ = try state.finish()
        Issue.record("finished, expected \(expected)", sourceLocation: sourceLocation)
    } catch {
        #expect(error == expected, sourceLocation: sourceLocation)
    }
}
