import Foundation
import NodeRuntime
import QR
import TenderTestSupport
import Testing

/// A scan for the first wanted code, through real libqrencode pixels read back by real zbar:
/// from image files (PNG and PGM) and from raw frames on a pipe, codes the caller does not
/// want skipped and said, the source's end a nil payload.
@Suite struct CodeScanTests {
    static func code(_ text: String) throws -> GreyImage {
        try QREncoder.encode(text: text).rasterize(scale: 6)
    }

    @Test func imagesAreReadInOrderPastTheCodesNotWanted() throws {
        let folder = try TemporaryDirectory("code-scan")
        defer { folder.remove() }
        let unwanted = folder.file("unwanted.png")
        let wanted = folder.file("wanted.pgm")
        try Data(PNG.encode(try Self.code("not this one"))).write(
            to: URL(fileURLWithPath: unwanted))
        try Data(PGM.encode(try Self.code("this one"))).write(to: URL(fileURLWithPath: wanted))
        var seen: [CodeScan.Event] = []
        let found = try CodeScan(.images([unwanted, wanted])).firstPayload(
            skip: { $0 == Array("this one".utf8) ? nil : "not the one wanted" },
            events: { seen.append($0) })
        #expect(found.payload == Array("this one".utf8))
        #expect(found.framesScanned == 2)
        #expect(seen == [.skipped("not the one wanted")])
    }

    @Test func rawFramesAreReadUntilTheirEnd() throws {
        let image = try Self.code("framed")
        let pipe = Pipe()
        // Two frames: a blank one, then the code; the writer closes, so the input ends.
        let blank = [UInt8](repeating: 255, count: image.pixels.count)
        pipe.fileHandleForWriting.write(Data(blank + image.pixels))
        try pipe.fileHandleForWriting.close()
        let scan = CodeScan(
            .frames(pipe.fileHandleForReading, width: image.width, height: image.height))
        let found = try scan.firstPayload()
        #expect(found.payload == Array("framed".utf8))
        #expect(found.framesScanned == 2)

        let empty = Pipe()
        try empty.fileHandleForWriting.close()
        let none = try CodeScan(
            .frames(empty.fileHandleForReading, width: image.width, height: image.height)
        ).firstPayload()
        #expect(none.payload == nil)
        #expect(none.framesScanned == 0)
    }

    @Test func aFileThatIsNoImageIsNamed() throws {
        let folder = try TemporaryDirectory("code-scan")
        defer { folder.remove() }
        let path = folder.file("notes.txt")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try CodeScan(.images([path])).firstPayload()
        } throws: { "\($0)".contains("neither a PNG nor a PGM image") }
    }
}
