import Foundation
import QR
import Scanning
import TenderTestSupport
import Testing

/// Interop with independent tools: files we write are read by zbarimg and ImageMagick, and
/// files ImageMagick writes (other colour types, transforms) are read by our decoder.
@Suite(
    .enabled(
        if: Tools.shouldRun(Tools.convert, Tools.zbarimg),
        Comment(rawValue: Tools.missingMessage)
    ))
struct ImageMagickTests {
    static let payload: [UInt8] = {
        var random = SeededGenerator(seed: 2026)
        return [0, 0xFF, 0x0A] + random.bytes(197)
    }()

    static func codeImage() throws -> GreyImage {
        try QREncoder.encode(payload).rasterize(scale: 4, border: 4)
    }

    @Test func zbarimgReadsOurPNG() throws {
        try Tools.require(Tools.zbarimg)
        let dir = try ScratchDirectory()
        defer { dir.cleanup() }
        let file = try dir.write(PNG.encode(try Self.codeImage()), "ours.png")
        let result = try Tools.run(Tools.zbarimg, ["--quiet", "--raw", "-Sbinary", file])
        #expect(result.status == 0)
        #expect(result.output == Self.payload)
    }

    @Test func imageMagickReadsOurPNGAndPGM() throws {
        try Tools.require(Tools.convert)
        let dir = try ScratchDirectory()
        defer { dir.cleanup() }
        let image = PNGTests.sampleImage(width: 50, height: 30, seed: 3)
        let png = try dir.write(PNG.encode(image), "ours.png")
        let pgm = try dir.write(PGM.encode(image), "ours.pgm")
        try Tools.convert([png, dir.path("fromPNG.pgm")])
        try Tools.convert([pgm, dir.path("fromPGM.pgm")])
        #expect(try PGM.decode(dir.read("fromPNG.pgm")) == image)
        #expect(try PGM.decode(dir.read("fromPGM.pgm")) == image)
    }

    /// (name, ImageMagick arguments, expected IHDR bit depth and colour type). The last
    /// argument is the output prefix; `-transparent white` adds a tRNS chunk or alpha.
    static let forms: [(String, [String], UInt8, UInt8)] = [
        ("grey1", ["-type", "Bilevel", "-define", "png:bit-depth=1", "PNG:"], 1, 0),
        ("grey2", ["-define", "png:bit-depth=2", "-define", "png:color-type=0", "PNG:"], 2, 0),
        ("grey4", ["-define", "png:bit-depth=4", "-define", "png:color-type=0", "PNG:"], 4, 0),
        ("grey8", ["-define", "png:bit-depth=8", "-define", "png:color-type=0", "PNG:"], 8, 0),
        ("grey16", ["-define", "png:bit-depth=16", "-define", "png:color-type=0", "PNG:"], 16, 0),
        ("greyalpha", ["-alpha", "on", "-define", "png:color-type=4", "PNG:"], 8, 4),
        ("rgb", ["-type", "TrueColor", "PNG24:"], 8, 2),
        ("rgb16", ["PNG48:"], 16, 2),
        ("rgba", ["-alpha", "on", "PNG32:"], 8, 6),
        ("rgba16", ["-alpha", "on", "PNG64:"], 16, 6),
        ("palette", ["-type", "Palette", "PNG8:"], 8, 3),
        ("palette2", ["-define", "png:color-type=3", "-define", "png:bit-depth=2", "PNG:"], 2, 3),
        ("palette-trns", ["-transparent", "white", "PNG8:"], 8, 3),
        (
            "grey-trns",
            [
                "-transparent", "white", "-define", "png:color-type=0", "-define",
                "png:bit-depth=8", "PNG:",
            ],
            8, 0
        ),
        ("rgb-trns", ["-transparent", "white", "PNG24:"], 8, 2),
        ("rgba-trns", ["-transparent", "white", "PNG32:"], 8, 6),
    ]

    @Test(arguments: forms.map(\.0))
    func imageMagickFormsDecodeAndScan(form: String) throws {
        try Tools.require(Tools.convert)
        let (_, arguments, depth, colorType) = Self.forms.first { $0.0 == form }!
        let dir = try ScratchDirectory()
        defer { dir.cleanup() }
        let source = try dir.write(PGM.encode(try Self.codeImage()), "code.pgm")
        var args = [source] + arguments.dropLast()
        args.append(arguments.last! + dir.path("out.png"))
        try Tools.convert(args)
        let bytes = try dir.read("out.png")
        let header = pngForm(bytes)
        #expect(header.colorType == colorType, "\(form): colour type")
        #expect(header.bitDepth == depth, "\(form): bit depth")
        if form.hasSuffix("-trns") {
            let transparency =
                bytes.count > 8
                && bytes.indices.dropLast(4).contains {
                    bytes[$0..<($0 + 4)].elementsEqual("tRNS".utf8)
                }
            #expect(transparency || colorType == 6, "\(form): has tRNS")
        }
        let decoded = try PNG.decode(bytes)
        #expect(decoded == (try Self.codeImage()), "\(form): pixels")
        #expect(QRScanner().scan(decoded) == [Self.payload], "\(form): scan")
    }

    @Test func interlacedFromImageMagickIsRefusedClearly() throws {
        try Tools.require(Tools.convert)
        let dir = try ScratchDirectory()
        defer { dir.cleanup() }
        let source = try dir.write(PGM.encode(try Self.codeImage()), "code.pgm")
        try Tools.convert([source, "-interlace", "PNG", dir.path("adam7.png")])
        let error = #expect(throws: QRError.self) { try PNG.decode(dir.read("adam7.png")) }
        #expect(error?.kind == .unsupported)
    }

    @Test func svgRasterizedByImageMagickScans() throws {
        try Tools.require(Tools.convert)
        let dir = try ScratchDirectory()
        defer { dir.cleanup() }
        let svg = try QREncoder.encode(Self.payload).svg(moduleSize: 4)
        let file = try dir.write(Array(svg.utf8), "code.svg")
        try Tools.convert([file, "-background", "white", "-flatten", dir.path("svg.png")])
        let image = try PNG.decode(dir.read("svg.png"))
        #expect(QRScanner().scan(image) == [Self.payload])
    }

    /// (name, ImageMagick transform, must decode by the pipeline)
    static func corpus(side s: Int) -> [(String, [String], Bool)] {
        // A keystone: the top edge shrinks by 2 × `top`% of the side, the right edge by
        // 2 × `right`%.
        func keystone(_ top: Int, _ right: Int) -> [String] {
            let (a, b, m) = (s * top / 100, s * right / 100, s - 1)
            return [
                "-background", "white", "-virtual-pixel", "background", "-distort", "Perspective",
                "0,0 \(a),0  \(m),0 \(m - a),\(b)  0,\(m) 0,\(m)  \(m),\(m) \(m),\(m - b)",
            ]
        }
        // What a cheap webcam held at an angle sees: keystones of 6 to 22 %, sharp and soft.
        let keystones = stride(from: 3, through: 11, by: 2).flatMap { top in
            [
                ("keystone-\(2 * top)%", keystone(top, top / 2 + 1), true),
                (
                    "keystone-\(2 * top)%-blur0x1.5",
                    keystone(top, top / 2 + 1) + ["-blur", "0x1.5"], true
                ),
            ]
        }
        return [
            ("clean", [], true),
            ("rotate5", ["-background", "white", "-rotate", "5"], true),
            ("rotate15", ["-background", "white", "-rotate", "15"], true),
            ("rotate90", ["-rotate", "90"], true),
            ("scale0.5", ["-resize", "50%"], true),
            ("scale2", ["-resize", "200%"], true),
            ("blur0x1", ["-blur", "0x1"], true),
            ("blur0x4", ["-blur", "0x4"], false),
            ("noise", ["-seed", "1", "-attenuate", "0.6", "+noise", "Gaussian"], true),
            ("lowcontrast", ["+level", "35%,65%"], true),
            ("perspective-mild", keystone(4, 3), true),
            ("perspective-strong", keystone(6, 4), true),
        ] + keystones
    }

    /// Every image of the corpus through zbar alone (with its second look at the image
    /// halved), zxing-cpp alone and the pipeline: it must read whatever either reads. Prints
    /// the counts per decoder (Docs/BENCHMARKS.md, "QR robustness corpus").
    @Test func robustnessCorpus() throws {
        try Tools.require(Tools.convert)
        let dir = try ScratchDirectory()
        defer { dir.cleanup() }
        let code = try Self.codeImage()
        let source = try dir.write(PNG.encode(code), "code.png")
        let corpus = Self.corpus(side: code.width)
        // QRTESTS_KEEP_CORPUS=dir keeps the images for inspection.
        let keep = ProcessInfo.processInfo.environment["QRTESTS_KEEP_CORPUS"]
        var read: [QRDecoders: [String]] = [:]
        for (name, transform, required) in corpus {
            try Tools.convert(
                [source] + transform + ["-colorspace", "Gray", dir.path("\(name).png")])
            let image = try PNG.decode(dir.read("\(name).png"))
            var readBy: [QRDecoders: Bool] = [:]
            for decoders in QRDecoders.allCases {
                let pipeline = ScanPipeline(decoders: decoders)
                readBy[decoders] = pipeline.process(image) == [.payload(Self.payload)]
                if readBy[decoders] == true { read[decoders, default: []].append(name) }
            }
            if let keep {
                try? FileManager.default.copyItem(
                    atPath: dir.path("\(name).png"), toPath: "\(keep)/\(name).png")
            }
            let either = readBy[.zbar] == true || readBy[.zxing] == true
            #expect(
                readBy[.both] == either, "\(name): the pipeline reads what either decoder reads")
            if required { #expect(readBy[.both] == true, "\(name) must decode") }
        }
        for decoders in QRDecoders.allCases {
            let names = read[decoders, default: []]
            let missed = corpus.map(\.0).filter { !names.contains($0) }
            print(
                "QR robustness corpus, \(decoders): \(names.count)/\(corpus.count) decoded; "
                    + "missed: \(missed.isEmpty ? "none" : missed.joined(separator: ", "))")
        }
    }
}
