import CZXing

/// Finds and decodes every QR code in a greyscale frame through zxing-cpp (behind the C shim
/// in Sources/System/CZXing). The only file of the module that calls zxing.
///
/// zxing reads what a cheap webcam sees better than zbar: strong keystone, heavy blur, sensor
/// noise, and it is about four times faster on a 640×480 frame. It keeps no state between
/// calls, so a scanner is a plain value any thread may use.
public struct ZXingScanner: Sendable {
    /// How zxing turns grey into black and white.
    public enum Binarizer: Sendable {
        /// zxing's default: a threshold for each 8×8 block, from its neighbourhood.
        case localAverage
        /// One threshold for the whole frame from its histogram: reads soft and low-contrast
        /// frames the local one loses.
        case globalHistogram
    }

    public let binarizer: Binarizer

    public init(binarizer: Binarizer = .localAverage) { self.binarizer = binarizer }

    /// Every QR payload zxing decodes in `image`, byte for byte (no character set applied);
    /// `[]` when there is none, when zxing failed (out of memory), or when the frame shows
    /// more finder-like shapes than any real one (a crafted frame that would keep zxing busy
    /// for seconds: the shim leaves it to the next look).
    public func scan(_ image: GreyImage) -> [[UInt8]] {
        var codes: OpaquePointer?
        let found = image.pixels.withUnsafeBufferPointer { buffer -> Int32 in
            // `pixels` is a var: zxing must never read past what it holds.
            guard let base = buffer.baseAddress, buffer.count >= image.width * image.height,
                let width = Int32(exactly: image.width), let height = Int32(exactly: image.height)
            else { return 0 }
            return tzx_read_qr(
                base, width, height, 0, binarizer.c, 1, &codes)
        }
        guard found > 0, let codes else { return [] }
        defer { tzx_codes_free(codes) }
        return (0..<found).map { index in
            var count = 0
            guard let bytes = tzx_codes_bytes(codes, index, &count) else { return [] }
            return Array(UnsafeBufferPointer(start: bytes, count: count))
        }
    }
}

extension ZXingScanner.Binarizer {
    fileprivate var c: tzx_binarizer {
        switch self {
        case .localAverage: TZX_BINARIZER_LOCAL_AVERAGE
        case .globalHistogram: TZX_BINARIZER_GLOBAL_HISTOGRAM
        }
    }
}
