#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs `body` on a new detached thread; false when none could be made.
public func spawnDetachedThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    let box = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
        &thread, nil,
        { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box)
    guard result == 0 else {
        Unmanaged<Body>.fromOpaque(box).release()
        return false
    }
    pthread_detach(thread)
    return true
}
