#if canImport(Glibc)
import Glibc
#endif

/// Measures the largest single allocation made while a block runs, through the sanitizer's
/// malloc hooks. Only the fuzzing build (AddressSanitizer) has them; elsewhere it measures
/// nothing and the oversize checks test the refusal alone.
enum AllocationMeter {
    private typealias MallocHook = @convention(c) (UnsafeRawPointer?, Int) -> Void
    private typealias FreeHook = @convention(c) (UnsafeRawPointer?) -> Void
    private typealias InstallHooks = @convention(c) (MallocHook, FreeHook) -> CInt

    // Written by the hook on the fuzzing thread only while `measuring`; libFuzzer runs one
    // input at a time, so there is no concurrent writer that matters.
    nonisolated(unsafe) private static var measuring = false
    nonisolated(unsafe) private static var largest = 0

    private static let installed: Bool = {
        guard let symbol = dlsym(nil, "__sanitizer_install_malloc_and_free_hooks") else {
            return false
        }
        let install = unsafeBitCast(symbol, to: InstallHooks.self)
        let onMalloc: MallocHook = { _, size in
            if AllocationMeter.measuring, size > AllocationMeter.largest {
                AllocationMeter.largest = size
            }
        }
        return install(onMalloc, { _ in }) != 0
    }()

    /// The largest allocation in bytes during `body`, or nil when allocations cannot be seen.
    static func largestAllocation(during body: () -> Void) -> Int? {
        guard installed else {
            body()
            return nil
        }
        largest = 0
        measuring = true
        body()
        measuring = false
        return largest
    }

    /// Runs `body` (a decoder given an input over its cap) and traps if it allocated more
    /// than `cap` bytes in one piece.
    static func requireAtMost(_ cap: Int, _ what: String, _ body: () -> Void) {
        guard let largest = largestAllocation(during: body) else { return }
        require(largest <= cap, "\(what): allocated \(largest) bytes at once, cap \(cap)")
    }
}
