import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import Synchronization

/// What a client that sends nothing, or sends slowly, may hold of the node: each connection
/// must finish a request's head within `headTimeout` of opening (or of its last response),
/// and the request's body within `bodyTimeout` of its head; at most `maxConnections` are open
/// at once (the ones over it are closed as they come, before anything is read). A response
/// being written, an event stream included, has no deadline. Without these, idle or trickling
/// connections (slowloris, a 1 GB POST at a byte every 10 s) held the server and, by the
/// thousand, ran the process out of descriptors.
public struct ConnectionLimits: Sendable {
    public var headTimeout: Duration = .seconds(15)
    public var bodyTimeout: Duration = .seconds(60)
    public var maxConnections = 256
    /// Open `/api/events` streams (each holds a connection for as long as it is open).
    public var maxEventStreams = 64

    public init() {}

    /// Limits under a process that may hold `descriptors` open files: connections take at most
    /// half, the rest stays for the wallets, the chain clients, Bluetooth and the camera.
    public init(descriptors: Int) {
        maxConnections = max(16, min(1_024, descriptors / 2))
        maxEventStreams = max(4, min(64, maxConnections / 4))
    }

    /// The HTTP/1 server with these limits: each connection guarded (`ConnectionGuard`), all
    /// counted in `count`, and closed after `idle` without a request.
    public func server(
        counting count: ConnectionCount, idle: Duration = .seconds(60)
    ) -> HTTPServerBuilder {
        .http1(
            configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: [ConnectionGuard(limits: self, count: count)],
                idleTimeout: TimeAmount(idle)))
    }
}

/// The open connections, shared by every connection's guard.
public final class ConnectionCount: Sendable {
    private let open = Atomic<Int>(0)

    public init() {}

    public var current: Int { open.load(ordering: .relaxed) }

    /// Counts one more; false (and nothing counted) when `limit` are open already.
    func enter(limit: Int) -> Bool {
        var current = open.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = open.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    func leave() { open.subtract(1, ordering: .relaxed) }
}

/// One connection's guard, in its pipeline after HTTP decoding (`ConnectionLimits`).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: ConnectionLimits
    private let count: ConnectionCount
    private var counted = false
    private var deadline: Scheduled<Void>?
    /// Requests whose head was read and whose response has not ended.
    private var unanswered = 0
    private var readingBody = false

    init(limits: ConnectionLimits, count: ConnectionCount) {
        self.limits = limits
        self.count = count
    }

    func handlerAdded(context: ChannelHandlerContext) {
        counted = count.enter(limit: limits.maxConnections)
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    /// Over the limit: closed before anything is read. Else the head's deadline runs.
    private func start(_ context: ChannelHandlerContext) {
        guard counted else {
            context.close(promise: nil)
            return
        }
        if deadline == nil { arm(context, limits.headTimeout) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        if counted { count.leave() }
        counted = false
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            readingBody = true
            arm(context, limits.bodyTimeout)
        case .body: break
        case .end:
            readingBody = false
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0, !readingBody { arm(context, limits.headTimeout) }
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext, _ timeout: Duration) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            channel.close(promise: nil)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}
