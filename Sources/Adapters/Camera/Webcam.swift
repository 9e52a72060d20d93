import CV4L2
import CZBar
import Foundation
import Glibc
import Posix
import QR

/// A V4L2 camera read through zbar's video API, frames delivered as 8-bit grey.
///
/// One owner: the `zbar_video_t*` lives and dies with this object, which is not Sendable;
/// a scanning loop owns it for its whole life.
public final class Webcam {
    private let video: OpaquePointer
    public let device: String

    /// The frame rate the driver granted, frames per second (nil when it does not say).
    public private(set) var frameRate: Double?

    /// Opens `device` (e.g. `/dev/video0`), asking for `width`×`height` and `frameRate`
    /// (frames per second) when given; the driver picks the nearest it supports.
    ///
    /// The pixel format is forced to GREY (or `fourcc`): zbar 0.23.92 crashes when it has to
    /// negotiate a format without a window (Docs/ARCHITECTURE.md, "C libraries"), and grey is
    /// what the scanner reads.
    public init(
        device: String, width: Int? = nil, height: Int? = nil, frameRate requested: Double? = nil,
        fourcc: String = "GREY"
    )
        throws(CameraError)
    {
        self.device = device
        if access(device, F_OK) != 0 {
            throw CameraError(
                .noDevice,
                "no camera at \(device) (is it plugged in? `ls /dev/video*` lists cameras)")
        }
        if access(device, R_OK | W_OK) != 0 {
            throw CameraError(
                .permissionDenied,
                "no permission to use \(device) (add the user to the 'video' group, or install udev/70-tender.rules)"
            )
        }
        var status = stat()
        guard stat(device, &status) == 0, status.st_mode & S_IFMT == S_IFCHR else {
            throw CameraError(.notAVideoDevice, "\(device) is not a video device")
        }
        if let requested, !(requested > 0 && requested <= 1000) {
            throw CameraError(.openFailed, "a frame rate of \(requested) frames/s is not usable")
        }
        var size: (UInt32, UInt32)?
        if let width, let height {
            guard let w = UInt32(exactly: width), let h = UInt32(exactly: height), w > 0, h > 0,
                width <= 16_384, height <= 16_384
            else {
                throw CameraError(.openFailed, "a camera size of \(width)x\(height) is not usable")
            }
            size = (w, h)
        }
        // The handle stays local until everything succeeded: a throwing init whose stored
        // properties are all set runs deinit, which would free it a second time.
        guard let video = zbar_video_create() else {
            throw CameraError(.openFailed, "zbar_video_create failed (out of memory)")
        }
        func fail(_ kind: CameraError.Kind, _ message: String) -> CameraError {
            zbar_video_destroy(video)
            return CameraError(kind, message)
        }
        if let size { zbar_video_request_size(video, size.0, size.1) }
        guard zbar_video_open(video, device) == 0 else {
            throw fail(.openFailed, "cannot open \(device): \(Self.lastError(video))")
        }
        guard zbar_video_init(video, fourccCode(fourcc)) == 0 else {
            throw fail(
                .notAVideoDevice,
                "\(device) cannot stream \(fourcc) frames: \(Self.lastError(video))")
        }
        // The rate is set between format and streaming: some drivers reset it on S_FMT and
        // refuse S_PARM while streaming.
        if let requested {
            let status = tender_v4l2_request_frame_rate(
                zbar_video_get_fd(video), UInt32((requested * 1000).rounded()), 1000)
            if status != 0 && status != ENOTSUP {
                throw fail(
                    .openFailed,
                    "\(device) refused a frame rate of \(requested) frames/s: \(String(cString: strerror(status)))"
                )
            }
        }
        var numerator: UInt32 = 0
        var denominator: UInt32 = 0
        if tender_v4l2_frame_rate(zbar_video_get_fd(video), &numerator, &denominator) == 0,
            numerator > 0, denominator > 0
        {
            frameRate = Double(numerator) / Double(denominator)
        }
        guard zbar_video_enable(video, 1) == 0 else {
            throw fail(
                .openFailed, "\(device) would not start streaming: \(Self.lastError(video))")
        }
        self.video = video
    }

    deinit {
        zbar_video_enable(video, 0)
        zbar_video_destroy(video)
    }

    /// `/dev/video0: 640x480 at 30.00 frames/s`: what was opened, as logs and notes say it.
    public var summary: String {
        let rate = frameRate.map { String(format: " at %.2f frames/s", $0) } ?? ""
        return "\(device): \(width)x\(height)\(rate)"
    }

    public var width: Int { Int(zbar_video_get_width(video)) }
    public var height: Int { Int(zbar_video_get_height(video)) }

    /// The next frame as grey pixels (a copy: zbar reuses its buffers), or nil when none
    /// arrives within `timeout` seconds. A camera that is unplugged mid-scan throws `.vanished`.
    public func nextFrame(timeout: Double = 5) throws(CameraError) -> GreyImage? {
        // zbar blocks in VIDIOC_DQBUF, which never returns on a stalled camera: wait here.
        var waiting = pollfd(fd: zbar_video_get_fd(video), events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, min(timeout, 3600)) * 1000)
        let ready = (try? retryingInterrupts("poll") { poll(&waiting, 1, milliseconds) }) ?? -1
        if ready == 0 { return nil }
        if ready < 0 || waiting.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
            throw vanished(because: "the driver ended the stream")
        }
        guard let image = zbar_video_next_image(video) else {
            throw vanished(because: Self.lastError(video))
        }
        defer { zbar_image_destroy(image) }
        guard let grey = zbar_image_convert(image, fourccCode("Y800")) else {
            throw CameraError(.badStream, "cannot convert a frame from \(device) to grey")
        }
        defer { zbar_image_destroy(grey) }
        let width = Int(zbar_image_get_width(grey))
        let height = Int(zbar_image_get_height(grey))
        guard width > 0, height > 0, let data = zbar_image_get_data(grey),
            Int(zbar_image_get_data_length(grey)) >= width * height
        else { throw CameraError(.badStream, "\(device) delivered an empty frame") }
        let bytes = UnsafeRawBufferPointer(start: data, count: width * height)
        return GreyImage(width: width, height: height, pixels: Array(bytes))
    }

    private func vanished(because reason: String) -> CameraError {
        let gone = access(device, F_OK) != 0 ? " (its device node is gone: unplugged?)" : ""
        return CameraError(
            .vanished,
            "camera \(device) went away mid-scan\(gone): \(reason); plug it back in and scan again"
        )
    }

    private static func lastError(_ video: OpaquePointer) -> String {
        guard let text = _zbar_error_string(UnsafeRawPointer(video), 0) else {
            return "unknown error"
        }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The little-endian V4L2 four-character code ("GREY" → 0x59455247).
func fourccCode(_ text: String) -> UInt {
    var code: UInt = 0
    for (index, byte) in text.utf8.prefix(4).enumerated() { code |= UInt(byte) << (8 * index) }
    return code
}
