import Foundation
import QR
import Testing

@testable import Camera

@Suite struct CameraTests {
    @Test func missingAndWrongDevicesGiveClearErrors() {
        #expect(throws: CameraError.self) { try Webcam(device: "/dev/video-none") }
        do {
            _ = try Webcam(device: "/dev/video-none")
        } catch {
            #expect(error.kind == .noDevice)
            #expect(error.message.contains("/dev/video-none"))
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-camera")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data([1, 2, 3]))
        do {
            _ = try Webcam(device: file.path)
            Issue.record("a regular file opened as a camera")
        } catch {
            #expect(error.kind == .notAVideoDevice)
        }
    }

    /// A character device that is no camera fails to open with zbar's reason, and nothing
    /// is freed twice (the handle is only kept once the camera streams).
    @Test func aDeviceThatIsNoCameraFailsCleanly() {
        do {
            _ = try Webcam(device: "/dev/null", width: 640, height: 480, frameRate: 30)
            Issue.record("/dev/null opened as a camera")
        } catch {
            #expect(error.kind == .openFailed)
            #expect(error.message.contains("cannot open /dev/null"))
        }
        for (width, height, rate) in [(5_000_000_000, 1, 30.0), (640, 480, 0), (640, 480, .nan)] {
            #expect(throws: CameraError.self) {
                try Webcam(device: "/dev/null", width: width, height: height, frameRate: rate)
            }
        }
    }

    @Test func hugeRawFrameSizesAreRefusedNotOverflowed() {
        #expect(throws: CameraError.self) {
            try RawFrameReader(handle: .standardInput, width: 1 << 32, height: 1 << 32)
        }
    }

    @Test func fourccCodesAreLittleEndian() {
        #expect(fourccCode("GREY") == 0x5945_5247)
        #expect(fourccCode("Y800") == 0x3030_3859)
    }

    @Test func readsRawFramesFromAPipe() throws {
        let pipe = Pipe()
        let frames: [[UInt8]] = [
            [UInt8](repeating: 10, count: 12), [UInt8](repeating: 200, count: 12),
        ]
        pipe.fileHandleForWriting.write(Data(frames.joined()))
        pipe.fileHandleForWriting.write(Data([1, 2, 3]))  // a torn last frame
        try pipe.fileHandleForWriting.close()
        var reader = try RawFrameReader(handle: pipe.fileHandleForReading, width: 4, height: 3)
        #expect(try reader.next()?.pixels == frames[0])
        #expect(try reader.next()?.pixels == frames[1])
        do {
            _ = try reader.next()
            Issue.record("accepted a torn frame")
        } catch {
            #expect(error.kind == .badStream)
            #expect(error.message.contains("3 of 12 bytes"))
        }
        #expect(throws: CameraError.self) {
            try RawFrameReader(handle: pipe.fileHandleForReading, width: 0, height: 3)
        }
    }

    @Test func aCleanEndOfStreamIsNil() throws {
        let pipe = Pipe()
        try pipe.fileHandleForWriting.close()
        var reader = try RawFrameReader(handle: pipe.fileHandleForReading, width: 2, height: 2)
        #expect(try reader.next() == nil)
    }
}
