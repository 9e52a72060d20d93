import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Work for the connection's owner thread, posted from any task. A pipe wakes the thread out
/// of `poll`, so it sleeps until there is a message, a command or a deadline.
final class Mailbox: Sendable {
    private let state = Mutex<(commands: [Command], open: Bool)>(([], true))
    /// The read end of the wake pipe, polled by the owner thread.
    let wakeDescriptor: Int32
    private let wakeWriter: Int32

    init() throws(DBusError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw DBusError(.failed, "pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        wakeDescriptor = ends[0]
        wakeWriter = ends[1]
    }

    deinit {
        Glibc.close(wakeDescriptor)
        Glibc.close(wakeWriter)
    }

    /// Queues `command`; false when the connection is closed (the command will never run).
    @discardableResult
    func post(_ command: Command) -> Bool {
        let accepted = state.withLock { state in
            guard state.open else { return false }
            state.commands.append(command)
            return true
        }
        // One byte is enough to wake the thread; a full pipe means it is awake already.
        if accepted {
            var one: UInt8 = 1
            _ = write(wakeWriter, &one, 1)
        }
        return accepted
    }

    /// Everything queued so far, in order.
    func take() -> [Command] {
        var drain = [UInt8](repeating: 0, count: 256)
        while read(wakeDescriptor, &drain, drain.count) == drain.count {}
        return state.withLock { state in
            defer { state.commands = [] }
            return state.commands
        }
    }

    /// Refuses further commands and returns those never taken (to be failed).
    func close() -> [Command] {
        state.withLock { state in
            state.open = false
            defer { state.commands = [] }
            return state.commands
        }
    }
}

typealias ReplyContinuation = CheckedContinuation<Result<Message, DBusError>, Never>

/// Handles a method call to an exported object: the reply's body, or an error reply.
public typealias MethodHandler = @Sendable (Message) async throws(DBusError) -> [DBusValue]

enum Command: Sendable {
    /// A message that expects no reply (signals, replies, no-reply calls).
    case send(Message)
    case call(Message, timeout: Duration, id: UInt64, ReplyContinuation)
    case cancelCall(id: UInt64)
    case subscribe(id: UInt64, MatchRule, AsyncStream<Message>.Continuation)
    case unsubscribe(id: UInt64)
    case export(ObjectPath, subtree: Bool, MethodHandler)
    case unexport(ObjectPath)
    case close(CheckedContinuation<Void, Never>?)
    /// A call to an exported object was answered (its reply, nil when none is expected).
    case served(id: UInt64, reply: Message?)

    /// Ends whatever waits on this command when the connection is gone.
    func fail(_ error: DBusError) {
        switch self {
        case .call(_, _, _, let continuation): continuation.resume(returning: .failure(error))
        case .subscribe(_, _, let continuation): continuation.finish()
        case .close(let continuation): continuation?.resume()
        default: break
        }
    }
}
