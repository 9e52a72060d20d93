import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import Synchronization

/// What a client that sends nothing, or sends slowly, may hold of the node: each connection
/// must finish a request's head within `headTimeout` of opening (or of its last response),
/// and the request's body within `bodyTimeout` of its head; at most `maxConnections` are open
/// at once (past it the one waiting longest for a head makes room, or, all busy, the new one
/// is closed before anything is read); at most four requests wait for their answers; a client
/// that takes nothing of what is written to it for `bodyTimeout` is closed. An answer being
/// written to a client that reads it, an event stream included, has no deadline. Without
/// these, idle or trickling connections (slowloris, a 1 GB POST at a byte every 10 s) held
/// the server and, by the thousand, ran the process out of descriptors, and pipelined
/// requests never read grew its memory without bound.
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
                additionalChannelHandlers: [
                    ConnectionGuard(limits: self, count: count), ProtectiveHeaders(),
                ],
                idleTimeout: TimeAmount(idle)))
    }
}

/// The open connections, shared by every connection's guard. When all the places are taken,
/// the connection that has waited longest for a request head (an idle one, or one trickling
/// its head) is closed to make room: idle connections cannot keep a client with a request out.
public final class ConnectionCount: Sendable {
    private struct Entry {
        let channel: any Channel
        /// Since when it waits for a request head (nil: reading or answering one).
        var waitingSince: NIODeadline?
    }

    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    public init() {}

    public var current: Int { entries.withLock { $0.count } }

    /// Admits `channel` (waiting for its first head); at `limit`, in place of the one waiting
    /// longest, which is closed. False (nothing counted) when every open one is busy.
    func enter(_ id: ObjectIdentifier, channel: any Channel, limit: Int) -> Bool {
        let now = NIODeadline.now()
        let (admitted, evicted): (Bool, (any Channel)?) = entries.withLock { table in
            if table.count < limit {
                table[id] = Entry(channel: channel, waitingSince: now)
                return (true, nil)
            }
            let idle = table.compactMap { key, entry in entry.waitingSince.map { (key, $0) } }
            guard let oldest = idle.min(by: { $0.1 < $1.1 }), let entry = table[oldest.0] else {
                return (false, nil)
            }
            table.removeValue(forKey: oldest.0)
            table[id] = Entry(channel: channel, waitingSince: now)
            return (true, entry.channel)
        }
        evicted?.close(promise: nil)
        return admitted
    }

    /// Whether the connection waits for a request head now.
    func waiting(_ id: ObjectIdentifier, _ waiting: Bool) {
        entries.withLock { table in table[id]?.waitingSince = waiting ? .now() : nil }
    }

    func leave(_ id: ObjectIdentifier) { _ = entries.withLock { $0.removeValue(forKey: id) } }
}

/// One connection's guard, in its pipeline after HTTP decoding (`ConnectionLimits`).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Requests a client may send ahead of their answers (HTTP/1.1 pipelining): more, and the
    /// answers of a client that never reads them would pile up in memory.
    static let maxPipelined = 4

    private let limits: ConnectionLimits
    private let count: ConnectionCount
    private var counted = false
    private var deadline: Scheduled<Void>?
    /// Armed while the client does not take what is written to it.
    private var stall: Scheduled<Void>?
    /// Requests whose head was read and whose response has not ended.
    private var unanswered = 0
    private var readingBody = false
    /// A CONNECT asks for a tunnel this server never opens. HTTP/1 codecs frame no answer to
    /// a CONNECT (no length, no body), so its refusal ends with the connection, said so.
    private var tunnelAsked = false

    init(limits: ConnectionLimits, count: ConnectionCount) {
        self.limits = limits
        self.count = count
    }

    private var id: ObjectIdentifier { ObjectIdentifier(self) }

    func handlerAdded(context: ChannelHandlerContext) {
        counted = count.enter(id, channel: context.channel, limit: limits.maxConnections)
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
        stall?.cancel()
        stall = nil
        if counted { count.leave(id) }
        counted = false
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if request.method == .connect { tunnelAsked = true }
            // A client that sends requests and does not take the answers (the channel's
            // buffer past its high-water mark) is closed rather than answered again.
            guard unanswered < Self.maxPipelined, context.channel.isWritable else {
                context.close(promise: nil)
                return
            }
            unanswered += 1
            readingBody = true
            count.waiting(id, false)
            arm(context, limits.bodyTimeout)
        case .body: break
        case .end:
            readingBody = false
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if tunnelAsked { return refuseTunnel(context, data, promise) }
        // Answered before its body came (a refusal: no token, too large): the connection is
        // closed once the answer is out, not held open for a body nobody will read. Else a
        // client without the token holds a place for the body timeout with each request.
        if case .end = unwrapOutboundIn(data), readingBody {
            return closeAfter(context, data, promise)
        }
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0, !readingBody {
                arm(context, limits.headTimeout)
                count.waiting(id, true)
            }
        }
        context.write(data, promise: promise)
    }

    /// The answer to a CONNECT, with `Connection: close`; the connection closed once it is out.
    private func refuseTunnel(
        _ context: ChannelHandlerContext, _ data: NIOAny, _ promise: EventLoopPromise<Void>?
    ) {
        switch unwrapOutboundIn(data) {
        case .head(var response):
            response.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(response)), promise: promise)
        case .body: context.write(data, promise: promise)
        case .end: closeAfter(context, data, promise)
        }
    }

    /// Writes the answer's end, then closes the connection.
    private func closeAfter(
        _ context: ChannelHandlerContext, _ data: NIOAny, _ promise: EventLoopPromise<Void>?
    ) {
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { [channel = context.channel] _ in
            channel.close(promise: nil)
        }
        written.futureResult.cascade(to: promise)
        context.writeAndFlush(data, promise: written)
    }

    /// A client that stops reading what it is sent (an answer, an event stream) is closed
    /// once it has taken nothing for `bodyTimeout`: its answers would otherwise wait in
    /// memory for as long as it likes.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stall?.cancel()
            stall = nil
        } else if stall == nil {
            let channel = context.channel
            stall = context.eventLoop.scheduleTask(in: TimeAmount(limits.bodyTimeout)) {
                channel.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
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
