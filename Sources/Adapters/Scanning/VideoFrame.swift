import QR

/// A code as one video frame: centred on white, as large as fits with its quiet zone.
/// What `tender show --frames-out` writes and what a camera pointed at a screen sees.
public enum VideoFrame {
    public static func compose(_ matrix: QRMatrix, width: Int, height: Int) -> GreyImage? {
        let scale = min(width, height) / (matrix.size + 8)
        guard scale >= 1 else { return nil }
        let code = matrix.rasterize(scale: scale, border: 4)
        var image = GreyImage(width: width, height: height)
        let left = (width - code.width) / 2
        let top = (height - code.height) / 2
        for y in 0..<code.height {
            let source = y * code.width
            let target = (top + y) * width + left
            image.pixels.replaceSubrange(
                target..<(target + code.width), with: code.pixels[source..<(source + code.width)])
        }
        return image
    }
}
