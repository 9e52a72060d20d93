/// A second look at a frame zbar found nothing in. zbar binarizes each frame with a local
/// threshold that heavy sensor noise and coarse video compression break even when the code is
/// plainly there; averaging gives it a clean picture again.
extension GreyImage {
    /// Half the width and height, each pixel the mean of a 2×2 block: averages away noise and
    /// compression blocks, at a quarter of the pixels. nil below 2×2.
    public func halved() -> GreyImage? {
        let halfWidth = width / 2
        let halfHeight = height / 2
        guard halfWidth > 0, halfHeight > 0 else { return nil }
        var result = [UInt8](repeating: 0, count: halfWidth * halfHeight)
        pixels.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { target in
                for y in 0..<halfHeight {
                    let top = 2 * y * width
                    let bottom = top + width
                    let row = y * halfWidth
                    for x in 0..<halfWidth {
                        let sum =
                            Int(source[top + 2 * x]) + Int(source[top + 2 * x + 1])
                            + Int(source[bottom + 2 * x]) + Int(source[bottom + 2 * x + 1])
                        target[row + x] = UInt8(truncatingIfNeeded: (sum + 2) >> 2)
                    }
                }
            }
        }
        return GreyImage(width: halfWidth, height: halfHeight, pixels: result)
    }
}
