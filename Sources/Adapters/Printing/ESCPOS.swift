import QR

/// What the job builder needs to know about a thermal receipt printer.
public struct PrinterProfile: Sendable, Equatable {
    public var name: String
    /// Printable dots across the paper at 203 dpi: 384 on 58 mm paper, 576 on 80 mm.
    public var dotsPerLine: Int
    /// The printer draws QR codes itself from `GS ( k` (Epson TM series and good clones).
    /// Cheap printers often ignore the command silently: print a test page before trusting it.
    public var supportsNativeQR: Bool
    /// The largest payload to hand to the printer's own encoder; larger payloads are printed
    /// as a raster image made by our encoder.
    public var maxNativeQRBytes: Int
    /// The printer has a cutter (`GS V` is sent after the feed).
    public var hasCutter: Bool

    public init(
        name: String, dotsPerLine: Int, supportsNativeQR: Bool, maxNativeQRBytes: Int,
        hasCutter: Bool = true
    ) {
        precondition(dotsPerLine >= 8, "a printer needs at least one byte of dots per line")
        self.name = name
        self.dotsPerLine = dotsPerLine
        self.supportsNativeQR = supportsNativeQR
        self.maxNativeQRBytes = maxNativeQRBytes
        self.hasCutter = hasCutter
    }

    /// Any 58 mm printer: raster only, no cutter (the usual hand-tear portable printer).
    public static let generic58mm = PrinterProfile(
        name: "generic 58 mm", dotsPerLine: 384, supportsNativeQR: false, maxNativeQRBytes: 0,
        hasCutter: false)
    /// Any 80 mm printer: raster only, with cutter.
    public static let generic80mm = PrinterProfile(
        name: "generic 80 mm", dotsPerLine: 576, supportsNativeQR: false, maxNativeQRBytes: 0)
    /// Epson TM-T20/T88-class 80 mm printers: native QR up to the QR capacity
    /// (Epson's `GS ( k` function 180 accepts up to 7,089 data bytes; binary capacity of a
    /// version-40 symbol is the tighter limit).
    public static let epson80mm = PrinterProfile(
        name: "Epson TM 80 mm", dotsPerLine: 576, supportsNativeQR: true, maxNativeQRBytes: 2_953)
}

/// ESC/POS byte streams for thermal receipt printers (Epson's command set, which nearly all
/// receipt printers follow). Nothing here does I/O: hand the bytes to a `PrinterSink`.
public enum ESCPOS {
    static let esc: UInt8 = 0x1B
    static let gs: UInt8 = 0x1D
    static let lf: UInt8 = 0x0A

    /// The printer draws the code itself: `GS ( k` with cn = 49 (QR), functions 165 (model 2),
    /// 167 (module size in dots), 169 (error correction), 180 (store data; pL pH count the
    /// data plus cn, fn, m), 181 (print the stored symbol).
    ///
    /// - Precondition: `moduleSize` in 1…16 and `payload` 1…`level.binaryCapacity` bytes
    ///   (callers check with `fitsNativeQR` first; `job` does).
    public static func nativeQR(
        payload: [UInt8], moduleSize: Int, level: QRErrorCorrection
    ) -> [UInt8] {
        precondition((1...16).contains(moduleSize), "GS ( k module size is 1…16 dots")
        precondition(
            !payload.isEmpty && payload.count <= level.binaryCapacity,
            "payload does not fit one QR symbol")
        var out: [UInt8] = []
        out += qrFunction(0x41, [0x32, 0x00])  // 165: model 2
        out += qrFunction(0x43, [UInt8(moduleSize)])  // 167: module size
        out += qrFunction(0x45, [level.escposByte])  // 169: error correction
        out += qrFunction(0x50, [0x30] + payload)  // 180: store data, m = 48
        out += qrFunction(0x51, [0x30])  // 181: print, m = 48
        return out
    }

    /// `GS ( k pL pH cn fn parameters`, cn = 49 (QR code).
    private static func qrFunction(_ fn: UInt8, _ parameters: [UInt8]) -> [UInt8] {
        let length = parameters.count + 2
        return [gs, 0x28, 0x6B, UInt8(length & 0xFF), UInt8(length >> 8), 0x31, fn] + parameters
    }

    /// Whether `job` would print `payload` with the printer's own encoder.
    public static func fitsNativeQR(
        _ payload: [UInt8], profile: PrinterProfile, level: QRErrorCorrection
    ) -> Bool {
        profile.supportsNativeQR && !payload.isEmpty
            && payload.count <= min(profile.maxNativeQRBytes, level.binaryCapacity)
    }

    /// Rows per `GS v 0` block: Epson's older printers accept at most 2,303 (yH ≤ 8); taller
    /// images go out as consecutive blocks that print seamlessly.
    public static let maxBandRows = 2_303

    /// The image as `GS v 0` raster blocks: mode 0 (normal density), xL xH = bytes per row,
    /// yL yH = rows, then rows of bits MSB first, 1 = black dot. Pixels darker than 128 are
    /// black; the last byte of a row is padded with white.
    public static func raster(_ image: GreyImage, bandRows: Int = maxBandRows) -> [UInt8] {
        precondition(bandRows >= 1 && bandRows <= 0xFFFF)
        let rowBytes = (image.width + 7) / 8
        precondition(rowBytes <= 0xFFFF, "image too wide for GS v 0")
        var out: [UInt8] = []
        out.reserveCapacity(image.height * rowBytes + (image.height / bandRows + 1) * 8)
        var top = 0
        while top < image.height {
            let rows = min(bandRows, image.height - top)
            out += [
                gs, 0x76, 0x30, 0x00, UInt8(rowBytes & 0xFF), UInt8(rowBytes >> 8),
                UInt8(rows & 0xFF), UInt8(rows >> 8),
            ]
            for y in top..<(top + rows) {
                let start = y * image.width
                for byteIndex in 0..<rowBytes {
                    var byte: UInt8 = 0
                    for bit in 0..<8 {
                        let x = byteIndex * 8 + bit
                        if x < image.width, image.pixels[start + x] < 128 {
                            byte |= 0x80 >> UInt8(bit)
                        }
                    }
                    out.append(byte)
                }
            }
            top += rows
        }
        return out
    }

    /// A whole receipt: `ESC @` (initialise), centred (`ESC a 1`) title in double size and
    /// bold, the code, the lines, then `ESC d 6` (feed past the tear bar) and `GS V 0` (full cut)
    /// when the printer has a cutter.
    ///
    /// The code is native (`GS ( k`) when the profile supports it and `payload` fits
    /// (`fitsNativeQR`), with the largest module size that keeps `matrix` (plus quiet zone)
    /// on the paper; otherwise `matrix` is rasterised at the largest whole number of dots per
    /// module that fits, quiet zone included, centred in a full-width image.
    ///
    /// Text goes out as printable ASCII only: receipt printers start in code page PC437 and
    /// there is no portable way to pick another, so every other character prints as `?`.
    public static func job(
        payload: [UInt8], matrix: QRMatrix, profile: PrinterProfile, title: String,
        lines: [String], level: QRErrorCorrection = .medium
    ) -> [UInt8] {
        var out: [UInt8] = [esc, 0x40, esc, 0x61, 0x01]
        if !title.isEmpty {
            out += [gs, 0x21, 0x11, esc, 0x45, 0x01]
            out += ascii(title) + [lf]
            out += [esc, 0x45, 0x00, gs, 0x21, 0x00]
        }
        out.append(lf)
        let across = matrix.size + 8
        let scale = max(1, profile.dotsPerLine / across)
        if fitsNativeQR(payload, profile: profile, level: level) {
            out += nativeQR(payload: payload, moduleSize: min(16, scale), level: level)
        } else {
            let code = matrix.rasterize(scale: scale, border: 4)
            out += raster(centred(code, width: profile.dotsPerLine))
        }
        out.append(lf)
        for line in lines { out += ascii(line) + [lf] }
        out += [esc, 0x64, 0x06]
        if profile.hasCutter { out += [gs, 0x56, 0x00] }
        return out
    }

    /// Printable ASCII; anything else (including control bytes that would be commands) is `?`.
    static func ascii(_ text: String) -> [UInt8] {
        text.unicodeScalars.map { (0x20...0x7E).contains($0.value) ? UInt8($0.value) : 0x3F }
    }

    /// `image` in the middle of a white image `width` wide (unchanged when it is not narrower).
    static func centred(_ image: GreyImage, width: Int) -> GreyImage {
        guard image.width < width else { return image }
        var wide = GreyImage(width: width, height: image.height)
        let left = (width - image.width) / 2
        for y in 0..<image.height {
            let source = y * image.width
            let target = y * width + left
            wide.pixels.replaceSubrange(
                target..<(target + image.width), with: image.pixels[source..<(source + image.width)]
            )
        }
        return wide
    }
}

extension QRErrorCorrection {
    /// Function 169's parameter: '0' L, '1' M, '2' Q, '3' H (48…51).
    var escposByte: UInt8 {
        switch self {
        case .low: 0x30
        case .medium: 0x31
        case .quartile: 0x32
        case .high: 0x33
        }
    }
}
