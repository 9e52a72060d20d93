import CZlib

/// The module's zlib calls: CRC-32 for PNG chunks, one-shot compression for writing, and a
/// streaming inflater for reading so decoded rows never need the whole image at once.

func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.withUnsafeBufferPointer {
        UInt32(truncatingIfNeeded: CZlib.crc32(0, $0.baseAddress, uInt($0.count)))
    }
}

/// zlib-format (RFC 1950) compression with `compress2`, as PNG's IDAT requires. Level 6
/// (zlib's default): on QR images level 9 was 20 times slower for files only 15% smaller.
func zlibCompress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
    var capacity = compressBound(uLong(bytes.count))
    var output = [UInt8](repeating: 0, count: Int(capacity))
    let status = output.withUnsafeMutableBufferPointer { out in
        bytes.withUnsafeBufferPointer { input in
            compress2(out.baseAddress, &capacity, input.baseAddress, uLong(input.count), level)
        }
    }
    // compressBound guarantees room, so only Z_MEM_ERROR remains, which Swift treats as fatal.
    precondition(status == Z_OK, "compress2 failed with status \(status)")
    output.removeSubrange(Int(capacity)...)
    return output
}

/// Inflates a zlib stream fed in pieces (PNG IDAT chunks) into caller-sized output pieces
/// (one PNG scanline at a time). One owner: it holds a `z_stream` and is not `Sendable`.
final class Inflater {
    /// Heap-allocated, not a stored struct: zlib keeps a back-pointer to its `z_stream` and
    /// refuses calls made through a different address, and Swift does not promise a stable
    /// address for `&property`.
    private let stream: UnsafeMutablePointer<z_stream>
    private var input: [UInt8] = []
    private var inputOffset = 0
    private(set) var finished = false

    init() throws(QRError) {
        // Set up in a local first: a throw after `self.stream` is set would run deinit.
        let pointer = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        pointer.initialize(to: z_stream())
        let status = inflateInit_(pointer, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            pointer.deallocate()
            throw QRError(.malformed, "zlib inflateInit failed with status \(status)")
        }
        stream = pointer
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Adds compressed bytes; they are consumed by later `fill` calls.
    func feed(_ bytes: ArraySlice<UInt8>) {
        if inputOffset > 0 {
            input.removeFirst(inputOffset)
            inputOffset = 0
        }
        input.append(contentsOf: bytes)
    }

    /// Fills `output[start...]` completely, returning `output.count`; or returns how far it
    /// got when the compressed bytes fed so far run out (feed more and call again from there).
    func fill(_ output: inout [UInt8], from start: Int) throws(QRError) -> Int {
        var filled = start
        while filled < output.count {
            if finished {
                throw QRError(.truncated, "PNG image data ends before the last scanline")
            }
            guard let produced = try step(&output, at: filled) else { return filled }
            filled += produced
        }
        return filled
    }

    /// After the last scanline: reads to the end of the zlib stream, which checks its
    /// Adler-32. Returns false when it needs more input. Throws if the stream holds more
    /// image data than the dimensions allow.
    func finish() throws(QRError) -> Bool {
        var scratch: [UInt8] = [0]
        while !finished {
            guard let produced = try step(&scratch, at: 0) else { return false }
            if produced > 0 {
                throw QRError(.malformed, "PNG image data is longer than its dimensions allow")
            }
        }
        return true
    }

    /// One `inflate` call into `output[at...]`: bytes produced, or nil if it needs input.
    private func step(_ output: inout [UInt8], at offset: Int) throws(QRError) -> Int? {
        let available = input.count - inputOffset
        if available == 0 { return nil }
        var produced = 0
        var consumed = 0
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.pointee.next_in = inBuffer.baseAddress! + inputOffset
                stream.pointee.avail_in = uInt(available)
                stream.pointee.next_out = outBuffer.baseAddress! + offset
                stream.pointee.avail_out = uInt(outBuffer.count - offset)
                let status = inflate(stream, Z_NO_FLUSH)
                consumed = available - Int(stream.pointee.avail_in)
                produced = outBuffer.count - offset - Int(stream.pointee.avail_out)
                // The buffers are only valid inside these closures: leave no dangling pointer.
                stream.pointee.next_in = nil
                stream.pointee.next_out = nil
                return status
            }
        }
        inputOffset += consumed
        switch status {
        case Z_OK: break
        case Z_BUF_ERROR: if produced == 0 && consumed == 0 { return nil }
        case Z_STREAM_END: finished = true
        case Z_DATA_ERROR:
            let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
            // zlib's own wording for a failed Adler-32 is "incorrect data check".
            let kind: QRError.Kind = reason.contains("data check") ? .badChecksum : .malformed
            throw QRError(kind, "PNG image data is not a valid zlib stream: \(reason)")
        case Z_NEED_DICT:
            throw QRError(
                .malformed, "PNG image data is a zlib stream that needs a preset dictionary")
        default:
            throw QRError(.malformed, "zlib inflate failed with status \(status)")
        }
        return produced
    }
}
