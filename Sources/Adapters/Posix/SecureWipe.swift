#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Overwrites memory that held a secret with zeros, in a way the optimiser may not remove
/// (glibc's `explicit_bzero`: the stores happen even though nothing reads them afterwards).
public func secureWipe(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    explicit_bzero(base, buffer.count)
}

/// Wipes an array's storage in place. Arrays are copy-on-write: this clears this array's
/// buffer, which is the only copy as long as it was never shared.
public func secureWipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { secureWipe($0) }
}
