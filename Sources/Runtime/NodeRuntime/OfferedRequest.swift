import NodeAPI
import NodeKit
import Tender

/// The one owner of the request a node offers over the air: the API hands it each request it
/// issues (the point-of-sale page's "Charge"); the payee service that listens is told to
/// advertise it, and to stop when it is paid or expires. While nothing listens, requests
/// carry no session key and go nowhere.
public actor OfferedRequest: RequestOffering {
    /// What the listening payee service is to do.
    public enum Change: Sendable, Equatable {
        /// Advertise this request (in place of any other).
        case offer(PaymentRequest)
        /// Stop advertising the request with this id.
        case withdraw(Bytes32, because: Withdrawal)
    }

    public enum Withdrawal: Sendable, Equatable { case paid, expired }

    private struct Listener {
        let sessionKey: [UInt8]
        let changes: AsyncStream<Change>.Continuation
    }

    private var listener: Listener?
    /// The request offered now, if any.
    public private(set) var current: PaymentRequest?
    private var expiring: Task<Void, Never>?
    private let clock: any WallClock
    private let sleep: @Sendable (Duration) async throws -> Void

    /// `sleep` waits out a request's lifetime (a test passes one it controls).
    public init(
        clock: any WallClock,
        sleep: @escaping @Sendable (Duration) async throws -> Void = {
            try await Task.sleep(for: $0)
        }
    ) {
        self.clock = clock
        self.sleep = sleep
    }

    /// The changes from now on, until `close`; one listener at a time (a second replaces the
    /// first, whose stream ends).
    public func listen(sessionKey: [UInt8]) -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream<Change>.makeStream()
        listener?.changes.finish()
        listener = Listener(sessionKey: sessionKey, changes: continuation)
        return stream
    }

    /// Nothing listens any more: the request offered is forgotten.
    public func close() {
        listener?.changes.finish()
        listener = nil
        forget()
    }

    public func sessionKey() -> [UInt8]? { listener?.sessionKey }

    public func issued(_ request: PaymentRequest) {
        guard let listener else { return }
        forget()
        current = request
        listener.changes.yield(.offer(request))
        // Only the request offered now can expire off the air: one timer, for it.
        let now = clock.now()
        let wait = Duration.seconds(request.expiry > now ? request.expiry - now : 0)
        expiring = Task { [sleep] in
            do { try await sleep(wait) } catch { return }
            self.withdraw(request.id, because: .expired)
        }
    }

    /// `id` was paid: withdrawn if it is still the one offered.
    public func paid(_ id: Bytes32) { withdraw(id, because: .paid) }

    private func withdraw(_ id: Bytes32, because reason: Withdrawal) {
        guard current?.id == id else { return }
        forget()
        listener?.changes.yield(.withdraw(id, because: reason))
    }

    private func forget() {
        expiring?.cancel()
        expiring = nil
        current = nil
    }
}
