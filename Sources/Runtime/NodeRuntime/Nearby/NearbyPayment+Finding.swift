import BlueZ
import Bluetooth
import NodeKit
import Noise
import PaymentSession
import Secp256k1
import Tender

/// Finding the payee nearby: discovery, the connection and, without a request's key, the
/// payee's hello.
extension NearbyPayment {
    /// The first payee that matches: the request's id prefix in its advertisement, or (with
    /// a payee) the payee its hello names.
    func findPayee(
        _ adapter: Adapter, progress: @Sendable (Progress) -> Void
    ) async throws -> (PayerConnection, Hello?) {
        let deadline = ContinuousClock.now + .seconds(scanSeconds)
        var tried: Set<String> = []
        while case let remaining = deadline - ContinuousClock.now, remaining > .zero {
            guard let nearby = try await candidate(on: adapter, excluding: tried, within: remaining)
            else { break }
            tried.insert(nearby.address)
            progress(.found(address: nearby.address, rssi: nearby.rssi))
            let connection = try await PayerConnection.connect(
                to: nearby.device, channel: try channelToAsk())
            progress(.connected(overL2CAP: connection.overL2CAP))
            if let request, request.sessionKey != nil { return (connection, nil) }
            let hello: Hello
            do { hello = try await connection.hello() } catch {
                await connection.close()
                throw error
            }
            progress(.sessionOpen)
            if let payee, (try? requestIn(hello).payee) != payee {
                await connection.close()
                continue
            }
            return (connection, hello)
        }
        throw NodeError(
            .missing("no matching payee found nearby in \(Int(scanSeconds)) s"),
            resolvedBy: .startNearbyPayee)
    }

    private func channelToAsk() throws -> PayerConnection.Channel {
        switch channel {
        case .gatt: return .gatt
        case .l2cap: return .l2capIfOffered
        case .auto:
            guard
                let terms = request.map({ ($0.amount, $0.asset) })
                    ?? amount.map({ ($0, Address.zero) })
            else { return .gatt }
            let coins = try wallet.coinsToPay(terms.0, asset: terms.1, now: clock.now())
            return coins > Channel.l2capFromCoins ? .l2capIfOffered : .gatt
        }
    }

    /// The next device that may be the payee, with discovery stopped (BlueZ aborts an LE
    /// connection attempt when discovery restarts under it).
    private func candidate(
        on adapter: Adapter, excluding tried: Set<String>, within duration: Duration
    ) async throws -> NearbyDevice? {
        try await Self.candidate(on: adapter, excluding: tried, within: duration) { nearby in
            guard let request else { return true }
            let tag = nearby.manufacturerData[TenderGATT.tagCompany].flatMap(TenderGATT.readTag)
            return tag?.idPrefix == Array(request.id.bytes.prefix(4))
        }
    }

    /// The next Tender payee advertising nearby that `matches`, with discovery stopped.
    static func candidate(
        on adapter: Adapter, excluding tried: Set<String>, within duration: Duration,
        matches: (NearbyDevice) -> Bool = { _ in true }
    ) async throws -> NearbyDevice? {
        let reports = try await adapter.discover(service: TenderGATT.service, for: duration)
        for await nearby in reports where !tried.contains(nearby.address) && matches(nearby) {
            await adapter.stopDiscovery()
            return nearby
        }
        return nil
    }
}
