import CKeccak

/// keccak-256 of many short messages at once: written one after another, then hashed together.
/// Messages of one block (at most 135 bytes) are hashed eight at a time by the AVX-512 kernel
/// (CKeccak) where the CPU has it; longer ones, a lone one left over, and every message on
/// other CPUs, one at a time by `Keccak256`. The digests are the same either way.
///
/// What verification hashes is mostly independent one-block messages (Docs/BENCHMARKS.md,
/// "Verification"); hashing eight in the time of about two is what brings a signature's
/// checking close to the cost of its recovery.
public struct Keccak256Batch {
    /// How many messages the kernel hashes at once on this CPU (0: no kernel, all scalar).
    public static let lanes = Int(tender_keccak256_lanes())

    private var bytes: [UInt8] = []
    /// Where each message ends in `bytes`.
    private var ends: [Int] = []

    /// Room for `messages` messages of about `bytesEach` bytes.
    public init(messages: Int = 0, bytesEach: Int = 96) {
        bytes.reserveCapacity(messages * bytesEach)
        ends.reserveCapacity(messages)
    }

    /// Messages ended so far.
    public var count: Int { ends.count }

    /// Appends `part` to the message being written, copied from the caller's storage as it is,
    /// with no reference counting on the way (`append(contentsOf:)` takes its argument owned;
    /// verification writes hundreds a bundle).
    public mutating func write(_ part: [UInt8]) {
        part.withUnsafeBytes { write($0) }
    }

    public mutating func write(_ part: ArraySlice<UInt8>) {
        part.withUnsafeBytes { write($0) }
    }

    public mutating func write(_ part: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: part)
    }

    /// Ends the message being written (it may be empty); its digest is `digests()`' next one.
    public mutating func endMessage() {
        ends.append(bytes.count)
    }

    /// Forgets every message, keeping the room they took (a batch reused layer after layer).
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// The messages' digests in order, 32 bytes each.
    public func digests() -> [UInt8] {
        let count = ends.count
        return [UInt8](unsafeUninitializedCapacity: 32 * count) { output, initialized in
            bytes.withUnsafeBufferPointer { all in
                // Never read when there are no bytes: every message is then empty.
                let base = all.baseAddress ?? UnsafePointer(bitPattern: 1)!
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 8) { group in
                    var grouped = 0
                    var start = 0
                    for index in 0..<count {
                        let end = ends[index]
                        if Self.lanes >= 8, end - start < Keccak256.rate {
                            group[grouped] = index
                            grouped += 1
                            if grouped == 8 {
                                hashGroup(group, 8, base: base, into: output)
                                grouped = 0
                            }
                        } else {
                            hashOne(index, base: base, into: output)
                        }
                        start = end
                    }
                    if grouped == 1 {
                        hashOne(group[0], base: base, into: output)  // alone, the scalar is faster
                    } else if grouped > 1 {
                        hashGroup(group, grouped, base: base, into: output)
                    }
                }
            }
            initialized = 32 * count
        }
    }

    private func start(of index: Int) -> Int { index == 0 ? 0 : ends[index - 1] }

    private func hashOne(
        _ index: Int, base: UnsafePointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>
    ) {
        let start = start(of: index)
        var hasher = Keccak256()
        hasher.update(UnsafeRawBufferPointer(start: base + start, count: ends[index] - start))
        hasher.finalize(into: output.baseAddress! + 32 * index)
    }

    /// The first `count` (2 to 8) messages of `group` through the kernel, each digest to its
    /// place.
    private func hashGroup(
        _ group: UnsafeMutableBufferPointer<Int>, _ count: Int, base: UnsafePointer<UInt8>,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8 * 32) { digests in
            withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>?.self, capacity: 8) { messages in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 8) { lengths in
                    for slot in 0..<count {
                        let start = start(of: group[slot])
                        messages[slot] = base + start
                        lengths[slot] = ends[group[slot]] - start
                    }
                    tender_keccak256_x8(
                        messages.baseAddress!, lengths.baseAddress!, count, digests.baseAddress!)
                }
            }
            for slot in 0..<count {
                (output.baseAddress! + 32 * group[slot]).update(
                    from: digests.baseAddress! + 32 * slot, count: 32)
            }
        }
    }
}
