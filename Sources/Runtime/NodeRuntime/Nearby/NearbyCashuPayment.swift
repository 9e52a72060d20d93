import BlueZ
import Bluetooth
import NodeKit
import PaymentSession
import Tender

/// A Cashu token given to a payee nearby (`tender pay --ble --cashu`, Docs/CASHU.md): the
/// first payee found that answers with Cashu terms signed for its session (with a payee
/// address: signed by that address's wallet key), the token made for its terms (`token`),
/// offered in the same session, and its answer.
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
        /// What it says it took; nil: it had the token already (it came before, on a link
        /// that then failed).
        public var taken: CashuTaken?
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
            let answer: Answer
            do {
                answer = try await connection.offer(Offer(.cashu(try await token(terms, signer))))
            } catch {
                await connection.close()
                throw error
            }
            let traffic = await connection.traffic
            await connection.close()
            switch answer.content {
            case .cashuTaken(let taken):
                return Result(payee: signer, taken: taken, traffic: traffic)
            case .refused("exists", _):
                return Result(payee: signer, taken: nil, traffic: traffic)
            case .refused(let code, let reason):
                throw Refused(code: code, reason: reason)
            case .receipt, .cashuTerms:
                throw NodeError(.io("the payee answered a Cashu token with something else"))
            }
        }
    }

    private func findPayee(
        _ adapter: Adapter, progress: @Sendable (NearbyPayment.Progress) -> Void
    ) async throws -> (PayerConnection, CashuTerms, Address) {
        let deadline = ContinuousClock.now + .seconds(scanSeconds)
        var tried: Set<String> = []
        var lastProblem: String?
        while case let remaining = deadline - ContinuousClock.now, remaining > .zero {
            guard
                let nearby = try await NearbyPayment.candidate(
                    on: adapter, excluding: tried, within: remaining)
            else { break }
            tried.insert(nearby.address)
            progress(.found(address: nearby.address, rssi: nearby.rssi))
            // One device that fails or says no is passed over: another nearby may be the payee.
            do {
                let connection = try await PayerConnection.connect(to: nearby.device)
                progress(.connected(overL2CAP: false))
                if let (terms, signer) = try await cashuTerms(of: connection, progress: progress) {
                    return (connection, terms, signer)
                }
                await connection.close()
                lastProblem =
                    "\(nearby.address) takes no Cashu tokens\(payee.map { " for \($0)" } ?? "")"
            } catch {
                lastProblem = "\(nearby.address): \(error)"
            }
        }
        throw NodeError(
            .missing(
                "no payee taking Cashu tokens\(payee.map { " with the address \($0)" } ?? "") found nearby in \(Int(scanSeconds)) s\(lastProblem.map { " (last: \($0))" } ?? "")"
            ),
            resolvedBy: .startNearbyPayee)
    }

    /// The payee's Cashu terms, asked for in a new session, with their signer: nil when it
    /// takes none, or they are not signed for this session by `payee` (when named).
    private func cashuTerms(
        of connection: PayerConnection, progress: @Sendable (NearbyPayment.Progress) -> Void
    ) async throws -> (CashuTerms, Address)? {
        do {
            _ = try await connection.hello()
            progress(.sessionOpen)
            guard
                case .cashuTerms(let terms) = try await connection.offer(Offer(.cashuTermsAsked))
                    .content,
                let sessionKey = await connection.payeeKey,
                let signer = terms.signer(sessionKey: Array(sessionKey.rawRepresentation)),
                payee == nil || payee == signer
            else { return nil }
            return (terms, signer)
        } catch {
            await connection.close()
            throw error
        }
    }
}
