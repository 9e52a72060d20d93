#if FUZZING
#if canImport(Glibc)
import Glibc
#endif

// libFuzzer's entry points; the target comes from TENDER_FUZZ_TARGET.

/// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer).
@_extern(c, "LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt

/// SwiftPM links an executable target on Linux with `--defsym main=<module>_main`, which
/// would otherwise point at a `@main` this build does not have: hand over to libFuzzer.
@_cdecl("TenderFuzz_main")
public func tenderFuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { start, count in
        fuzzerTestOneInput(start, count)
    }
}

// Set once in LLVMFuzzerInitialize, before libFuzzer runs any input.
nonisolated(unsafe) private var selectedTarget: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
    let arguments = (0..<Int(argc?.pointee ?? 0)).compactMap { index in
        argv?.pointee?[index].map { String(cString: $0) }
    }
    if arguments.contains("--list") {
        print(Targets.listing)
        exit(0)
    }
    let name = getenv("TENDER_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = Targets.named(name) else {
        print("TENDER_FUZZ_TARGET must name a target (got '\(name)'):\n\(Targets.listing)")
        exit(2)
    }
    // Before libFuzzer installs its malloc limit: these inputs are bigger than any limit.
    target.oversizeCheck()
    selectedTarget = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    selectedTarget?.run(bytes)
    return 0
}
#endif
