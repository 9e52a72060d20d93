#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's limit on open descriptors (RLIMIT_NOFILE). A server takes one per connection:
/// systemd starts services with a soft limit of 1024 whatever the hard limit allows, so a
/// long-running process raises its soft limit to the hard one at start, as Go's runtime and
/// nginx's `worker_rlimit_nofile` do.
public enum OpenFileLimit {
    /// The soft limit now.
    public static var current: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        return Int(clamping: limit.rlim_cur)
    }

    /// Raises the soft limit to the hard one (at most `ceiling`: a huge limit makes some
    /// libraries' close-every-descriptor loops slow) and returns the soft limit after.
    @discardableResult
    public static func raise(ceiling: Int = 65_536) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return current }
        let wanted = min(limit.rlim_max, rlim_t(ceiling))
        if wanted > limit.rlim_cur {
            limit.rlim_cur = wanted
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return current
    }
}
