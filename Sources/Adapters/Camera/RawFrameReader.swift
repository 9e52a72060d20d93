import Foundation
import QR

/// Grey frames from a raw stream, `width × height` bytes each with no header: what
/// `ffmpeg -i VIDEO -f rawvideo -pix_fmt gray -s WxH -` writes, so any video feeds the scanner.
public struct RawFrameReader {
    public let width: Int
    public let height: Int
    private let handle: FileHandle
    public static let maxPixels = 8192 * 8192

    public init(handle: FileHandle, width: Int, height: Int) throws(CameraError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, pixels <= Self.maxPixels else {
            throw CameraError(.badStream, "frame size \(width)x\(height) is not a usable size")
        }
        self.handle = handle
        self.width = width
        self.height = height
    }

    /// The next frame, or nil at a clean end of stream.
    public mutating func next() throws(CameraError) -> GreyImage? {
        let size = width * height
        var frame: [UInt8] = []
        frame.reserveCapacity(size)
        while frame.count < size {
            let chunk: Data
            do { chunk = try handle.read(upToCount: size - frame.count) ?? Data() } catch {
                throw CameraError(
                    .badStream, "reading frames failed: \(error.localizedDescription)")
            }
            if chunk.isEmpty { break }
            frame.append(contentsOf: chunk)
        }
        if frame.isEmpty { return nil }
        guard frame.count == size else {
            throw CameraError(
                .badStream,
                "the stream ended inside a frame (\(frame.count) of \(size) bytes): is the size \(width)x\(height) right?"
            )
        }
        return GreyImage(width: width, height: height, pixels: frame)
    }
}
