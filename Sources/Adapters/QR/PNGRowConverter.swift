/// Turns one unfiltered PNG scanline of any colour type and depth into 8-bit grey.
/// Colour uses Rec. 601 luma; alpha and tRNS are composited over white, because a QR
/// code drawn on a transparent background means light modules there.
struct PNGRowConverter {
    private let header: PNGHeader
    /// Palette index → composited grey, for colour type 3.
    private let paletteGrey: [UInt8]
    private let paletteCount: Int
    /// The single fully transparent colour of colour types 0 and 2, as raw samples.
    private let transparentKey: [Int]?

    init(header: PNGHeader, palette: [UInt8]?, transparency: [UInt8]?) throws(QRError) {
        self.header = header
        var greys = [UInt8](repeating: 0, count: 256)
        let count = (palette?.count ?? 0) / 3
        if let palette {
            for i in 0..<count {
                let alpha = transparency.flatMap { i < $0.count ? $0[i] : nil } ?? 255
                let grey = luma(palette[3 * i], palette[3 * i + 1], palette[3 * i + 2])
                greys[i] = overWhite(grey, alpha)
            }
        }
        paletteGrey = greys
        paletteCount = count
        // tRNS for grey holds one 16-bit sample, for RGB three; other types have none.
        if let t = transparency, header.colorType == 0 || header.colorType == 2 {
            let samples = header.colorType == 0 ? 1 : 3
            guard t.count >= samples * 2 else {
                throw QRError(.malformed, "PNG tRNS chunk of \(t.count) bytes is too short")
            }
            transparentKey = (0..<samples).map { Int(t[2 * $0]) << 8 | Int(t[2 * $0 + 1]) }
        } else {
            transparentKey = nil
        }
    }

    /// `row[0]` is the filter byte; samples start at `row[1]`.
    func convert(_ row: [UInt8], into pixels: inout [UInt8], at start: Int) throws(QRError) {
        let width = header.width
        let depth = header.bitDepth
        if depth < 8 {
            // Sub-byte samples, packed from the most significant bit: grey or palette index.
            let mask = (1 << depth) - 1
            for x in 0..<width {
                let bit = x * depth
                let value = Int(row[1 + bit / 8]) >> (8 - depth - bit % 8) & mask
                pixels[start + x] = try sub8(value, maxValue: mask)
            }
            return
        }
        // 8- or 16-bit samples: 16-bit keeps its high byte for grey, its full value for tRNS.
        let step = depth / 8
        let channels = header.channels
        for x in 0..<width {
            let base = 1 + x * channels * step
            @inline(__always) func high(_ c: Int) -> UInt8 { row[base + c * step] }
            @inline(__always) func full(_ c: Int) -> Int {
                step == 1
                    ? Int(row[base + c]) : Int(row[base + 2 * c]) << 8 | Int(row[base + 2 * c + 1])
            }
            let grey: UInt8
            switch header.colorType {
            case 0:
                let key = transparentKey
                grey = key != nil && key![0] == full(0) ? 255 : high(0)
            case 2:
                let key = transparentKey
                let keyed =
                    key != nil && key![0] == full(0) && key![1] == full(1) && key![2] == full(2)
                grey = keyed ? 255 : luma(high(0), high(1), high(2))
            case 3:
                grey = try paletteEntry(Int(row[base]))
            case 4:
                grey = overWhite(high(0), high(1))
            default:
                grey = overWhite(luma(high(0), high(1), high(2)), high(3))
            }
            pixels[start + x] = grey
        }
    }

    private func sub8(_ value: Int, maxValue: Int) throws(QRError) -> UInt8 {
        if header.colorType == 3 { return try paletteEntry(value) }
        if let key = transparentKey, key[0] == value { return 255 }
        return UInt8(value * 255 / maxValue)
    }

    private func paletteEntry(_ index: Int) throws(QRError) -> UInt8 {
        guard index < paletteCount else {
            throw QRError(
                .malformed,
                "PNG pixel uses palette index \(index) of a \(paletteCount)-entry palette")
        }
        return paletteGrey[index]
    }
}

/// Rec. 601 luma, rounded.
func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
    let weighted: Int = 299 * Int(r) + 587 * Int(g) + 114 * Int(b)
    return UInt8((weighted + 500) / 1000)
}

/// `grey` at opacity `alpha` over a white background, rounded.
func overWhite(_ grey: UInt8, _ alpha: UInt8) -> UInt8 {
    let a = Int(alpha)
    let mixed: Int = Int(grey) * a + 255 * (255 - a)
    return UInt8((mixed + 127) / 255)
}
