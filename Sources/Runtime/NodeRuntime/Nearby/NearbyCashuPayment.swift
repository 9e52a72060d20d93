import BlueZ
import Bluetooth
import NodeKit
import PaymentSession
import Tender

/// A Cashu token given to a payee nearby (`tender pay --ble --cashu`, Docs/CASHU.md): the
/// first payee found whose hello says it takes Cashu tokens (with a payee address: the one
/// whose wallet key signed its terms), the token made for its terms (`token`), offered in the
/// payment session, and its answer.
public struct NearbyCashuPayment: Sendable {
    public let adapterName: String?
    public let scanSeconds: Double
    /// The payee to pay, when the payer names one.
    public let payee: Address?

    public init(adapterName: String?, scanSeconds: Double, payee: Address?) {
        self.adapterName = adapterName
        self.scanSeconds = scanSeconds
        self.payee = payee
    }

    /// What the payee said, and who it is.
    public struct Result: Sendable {
        /// The payee's wallet address (its terms' signer).
        public var payee: Address
        public var taken: CashuTaken
        /// The payee had the token already (it came before, on a link that then failed).
        public var hadIt: Bool
        public var traffic: PayerConnection.Traffic
    }

    /// The payee took the token only if `run` returns; it refused it when `run` throws this.
    public struct Refused: Error, CustomStringConvertible {
        public let code: String
        public let reason: String
        public var description: String { "the payee refused the Cashu token: \(reason) (\(code))" }
    }

    /// `token` makes the token for the payee's terms (signed by `Address`); it is called once
    /// the payee is found, and what it gives is offered. A link that fails after the offer
    /// leaves the token with the payee or not: the payer keeps it to hand over again.
    public func run(
        progress: @escaping @Sendable (NearbyPayment.Progress) -> Void = { _ in },
        token: (CashuTerms, Address) async throws -> String
    ) async throws -> Result {
        try await reportingBluetooth {
            let bluetooth = try await BluetoothSession.open()
            let adapter = try await bluetooth.adapter(adapterName)
            try await adapter.requirePowered()
            progress(.looking(adapter: adapter.name))
            let (connection, terms, signer) = try await findPayee(adapter, progress: progress)
            do {
                let text = try await token(terms, signer)
                let answer = try await connection.offer(Offer(.cashu(text)))
                let traffic = await connection.traffic
                await connection.close()
                switch answer.content {
                case .cashuTaken(let taken):
                    return Result(payee: signer, taken: taken, hadIt: false, traffic: traffic)
                case .refused(let code, _) where code == "exists":
                    return Result(
                        payee: signer, taken: CashuTaken(amount: 0, unit: "", mint: ""),
                        hadIt: true, traffic: traffic)
                case .refused(let code, let reason):
                    throw Refused(code: code, reason: reason)
                case .receipt:
                    throw NodeError(.io("the payee answered a Cashu token with a receipt"))
                }
            } catch {
                await connection.close()
                throw error
            }
        }
    }

    private func findPayee(
        _ adapter: Adapter, progress: @Sendable (NearbyPayment.Progress) -> Void
    ) async throws -> (PayerConnection, CashuTerms, Address) {
        let deadline = ContinuousClock.now + .seconds(scanSeconds)
        var tried: Set<String> = []
        while case let remaining = deadline - ContinuousClock.now, remaining > .zero {
            let reports = try await adapter.discover(service: TenderGATT.service, for: remaining)
            var found: NearbyDevice?
            for await nearby in reports where !tried.contains(nearby.address) {
                found = nearby
                break
            }
            await adapter.stopDiscovery()
            guard let nearby = found else { break }
            tried.insert(nearby.address)
            progress(.found(address: nearby.address, rssi: nearby.rssi))
            let connection = try await PayerConnection.connect(to: nearby.device)
            progress(.connected(overL2CAP: false))
            let hello: Hello
            do { hello = try await connection.hello() } catch {
                await connection.close()
                throw error
            }
            progress(.sessionOpen)
            guard let terms = hello.cashu, let signer = terms.signer,
                payee == nil || payee == signer
            else {
                await connection.close()
                continue
            }
            return (connection, terms, signer)
        }
        throw NodeError(
            .missing(
                "no payee taking Cashu tokens\(payee.map { " with the address \($0)" } ?? "") found nearby in \(Int(scanSeconds)) s"
            ),
            resolvedBy: .startNearbyPayee)
    }
}
