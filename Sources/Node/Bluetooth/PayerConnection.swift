import BlueZ
import Link
import NodeKit
import Noise
import PaymentSession

/// The payer's connection to one payee: the GATT link and the payment session on it.
public actor PayerConnection {
    public let device: Device
    private let link: any MessageLink
    /// Whether the session runs over an LE L2CAP channel (else over GATT).
    public nonisolated let overL2CAP: Bool
    private var session: PayerBox?
    private let answerTimeout: Duration

    /// How to reach the payee once connected.
    public enum Channel: Sendable {
        /// The windowed link over GATT.
        case gatt
        /// An LE L2CAP channel when the payee's info offers one, else GATT.
        case l2capIfOffered
    }

    /// Connects (with retries), waits for the payee's services (the characteristics may come
    /// late) and opens the link: over GATT, or over L2CAP when asked and offered.
    public static func connect(
        to device: Device, channel: Channel = .gatt, answerTimeout: Duration = .seconds(30)
    ) async throws(BluetoothError) -> PayerConnection {
        try await device.connect()
        do {
            try await device.servicesResolved(timeout: .seconds(30))
            if channel == .l2capIfOffered, let l2cap = try await l2capChannel(to: device) {
                return PayerConnection(
                    device: device, link: l2cap, overL2CAP: true, answerTimeout: answerTimeout)
            }
            let rx = try await device.characteristic(TenderGATT.rx, of: TenderGATT.service)
            let tx = try await device.characteristic(TenderGATT.tx, of: TenderGATT.service)
            let link = try await CentralLink.open(rx: rx, tx: tx)
            return PayerConnection(
                device: device, link: link, overL2CAP: false, answerTimeout: answerTimeout)
        } catch {
            // A connection left up hides the payee from the next discovery.
            await device.disconnectAndForget()
            throw error
        }
    }

    /// The payee's L2CAP channel, when its info offers one (nil: use GATT).
    private static func l2capChannel(
        to device: Device
    ) async throws(BluetoothError) -> L2CAPChannel? {
        let info = try await device.characteristic(TenderGATT.info, of: TenderGATT.service)
        guard let psm = try PayeeInfo(decoding: try await info.read()).psm else { return nil }
        let random = await device.addressType() == "random"
        return try await L2CAPChannel.connect(to: device.address, random: random, psm: psm)
    }

    private init(
        device: Device, link: any MessageLink, overL2CAP: Bool, answerTimeout: Duration
    ) {
        self.device = device
        self.link = link
        self.overL2CAP = overL2CAP
        self.answerTimeout = answerTimeout
    }

    /// What this connection carried so far, for the figures: bytes written and read on the
    /// air (datagrams, link headers and acks included) and round trips (messages sent, then an
    /// answer awaited).
    public struct Traffic: Sendable {
        public var bytesWritten: Int
        public var bytesRead: Int
        public var roundTrips: Int
    }

    private var roundTrips = 0

    public var traffic: Traffic {
        get async {
            Traffic(
                bytesWritten: await link.bytesWritten, bytesRead: await link.bytesRead,
                roundTrips: roundTrips)
        }
    }

    /// The payee's Noise static key, once the handshake has authenticated it.
    public var payeeKey: NoisePublicKey? { session?.session.payeeKey }

    /// Noise XX: opens the session; the payee's hello (its current request, its evidence).
    public func hello() async throws(BluetoothError) -> Hello {
        let box = PayerBox(
            try session(PayerSession(maxMessageBytes: SessionMessages.maxMessageBytes)))
        session = box
        let first = try session { () throws(SessionError) in try box.session.open() }
        try await link.send(first)
        roundTrips += 1
        let reply = try await link.receive(timeout: answerTimeout)
        let event = try session { () throws(SessionError) in try box.session.receive(reply) }
        guard case .hello(let hello) = event else {
            throw BluetoothError(.peerMisbehaved, "the payee answered the handshake with an answer")
        }
        return hello
    }

    /// Sends an offer and returns the payee's answer. With `payeeKey` (from the payee's code)
    /// and no session yet, the session opens with it (Noise IK); otherwise `hello()` came first.
    public func offer(
        _ offer: Offer, payeeKey: NoisePublicKey? = nil
    ) async throws(BluetoothError)
        -> Answer
    {
        var messages: [[UInt8]]
        let box: PayerBox
        if let existing = session {
            box = existing
            messages = try session { () throws(SessionError) in try box.session.send(offer) }
        } else if let payeeKey {
            box = PayerBox(
                try session(
                    PayerSession(
                        payeeKey: payeeKey, maxMessageBytes: SessionMessages.maxMessageBytes)))
            session = box
            messages = [
                try session { () throws(SessionError) in try box.session.open(with: offer) }
            ]
        } else {
            throw BluetoothError(.peerMisbehaved, "an offer before the payee's hello")
        }
        while true {
            for message in messages { try await link.send(message) }
            roundTrips += 1
            let reply = try await link.receive(timeout: answerTimeout)
            switch try session({ () throws(SessionError) in try box.session.receive(reply) }) {
            case .answer(let answer): return answer
            case .send(let more): messages = more
            case .hello: throw BluetoothError(.peerMisbehaved, "the payee sent a second hello")
            }
        }
    }

    public func close() async {
        await link.closeLink()
        await device.disconnectAndForget()
    }

    private func session<T>(_ body: () throws(SessionError) -> T) throws(BluetoothError) -> T {
        do { return try body() } catch {
            throw BluetoothError(
                .peerMisbehaved, "payment session with \(device.address): \(error)")
        }
    }

    private func session(
        _ make: @autoclosure () throws(SessionError) -> PayerSession
    ) throws(BluetoothError)
        -> PayerSession
    {
        do { return try make() } catch {
            throw BluetoothError(.peerMisbehaved, "payment session: \(error)")
        }
    }
}

/// A payer session in a box (non-copyable state held by an actor).
private final class PayerBox {
    var session: PayerSession
    init(_ session: consuming PayerSession) { self.session = session }
}
