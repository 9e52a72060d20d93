/// A QR symbol as a square of modules, row-major, `true` = dark. Renderers and printers
/// draw from this; the encoder makes it; nothing here knows about pixels.
public struct QRMatrix: Sendable, Equatable {
    /// Modules per side (21 for version 1, + 4 per version), without the quiet zone.
    public let size: Int
    public let modules: [Bool]

    public init(size: Int, modules: [Bool]) {
        precondition(size > 0 && modules.count == size * size, "modules must be size × size")
        self.size = size
        self.modules = modules
    }

    /// Dark or light at column `x`, row `y`; outside the symbol is light (quiet zone).
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }
}

/// An 8-bit greyscale image (0 black … 255 white), row-major, no padding: what zbar scans
/// (fourcc Y800/GREY) and what the PNG/PGM codecs and renderers exchange.
public struct GreyImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public init(width: Int, height: Int, fill: UInt8 = 255) {
        self.init(
            width: width, height: height, pixels: [UInt8](repeating: fill, count: width * height))
    }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}

extension QRMatrix {
    /// Pixels: `scale` pixels per module and a quiet zone of `border` modules (the standard
    /// asks for 4).
    public func rasterize(scale: Int = 4, border: Int = 4) -> GreyImage {
        let side = (size + 2 * border) * scale
        var image = GreyImage(width: side, height: side)
        for y in 0..<size {
            for x in 0..<size where self[x, y] {
                for dy in 0..<scale {
                    let row = ((y + border) * scale + dy) * side
                    for dx in 0..<scale { image.pixels[row + (x + border) * scale + dx] = 0 }
                }
            }
        }
        return image
    }
}
