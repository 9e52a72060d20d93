import Foundation
import QR
import TenderTestSupport
import Testing

@testable import Printing

struct PDFSheetTests {
    static let lines = ["4.50 EUR", "to 0x5aAe…BeAed", "Caf\u{65}\u{301} (Marché) \\ #7"]

    static func sheet(
        _ payload: [UInt8] = Payloads.request, paper: PDFSheet.Paper = .a4
    ) throws -> [UInt8] {
        let matrix = try QREncoder.encode(payload, level: .medium)
        return PDFSheet.render(
            code: matrix, title: "Olive Stall (Row 3)", lines: lines, paper: paper)
    }

    // MARK: File structure

    @Test(arguments: [PDFSheet.Paper.a4, .letter])
    func crossReferenceTablePointsAtEveryObject(paper: PDFSheet.Paper) throws {
        let pdf = try Self.sheet(paper: paper)
        let text = String(decoding: pdf, as: UTF8.self)
        #expect(text.hasPrefix("%PDF-1.4\n"))
        #expect(text.hasSuffix("%%EOF\n"))
        let startxref = try #require(text.range(of: "startxref\n", options: .backwards))
        let xrefOffset = try #require(Int(text[startxref.upperBound...].prefix { $0.isNumber }))
        let xref = Array(pdf[xrefOffset...])
        #expect(String(decoding: xref.prefix(5), as: UTF8.self) == "xref\n")
        let table = String(decoding: xref, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(table[1] == "0 7")
        #expect(table[2] == "0000000000 65535 f ")
        for object in 1...6 {
            let entry = table[2 + object]
            #expect(entry.utf8.count == 19)  // + "\n" = the required 20 bytes
            #expect(entry.hasSuffix(" 00000 n "))
            let offset = try #require(Int(entry.prefix(10)))
            let header = Array("\(object) 0 obj\n".utf8)
            #expect(Array(pdf[offset..<(offset + header.count)]) == header, "object \(object)")
        }
        #expect(text.contains("trailer\n<< /Size 7 /Root 1 0 R >>"))
        let size = paper.size
        #expect(text.contains("/MediaBox [0 0 \(size.width) \(size.height)]"))
    }

    @Test func streamLengthIsExact() throws {
        let pdf = try Self.sheet()
        let text = String(decoding: pdf, as: UTF8.self)
        let lengthRange = try #require(text.range(of: "<< /Length "))
        let length = try #require(Int(text[lengthRange.upperBound...].prefix { $0.isNumber }))
        let start = try #require(text.range(of: ">>\nstream\n")).upperBound
        let end = try #require(text.range(of: "\nendstream")).lowerBound
        #expect(text.utf8.distance(from: start, to: end) == length)
    }

    @Test func fileIsSevenBitText() throws {
        // Non-ASCII text goes in as octal escapes; only the binary-marker comment is high.
        let pdf = try Self.sheet()
        let body = pdf.dropFirst(15)  // "%PDF-1.4\n" + "%âãÏÓ\n"
        #expect(body.allSatisfy { $0 < 0x80 })
    }

    @Test func codeIsVectorRectangles() throws {
        let matrix = try QREncoder.encode(Payloads.request, level: .medium)
        let content = String(
            decoding: PDFSheet.contentStream(code: matrix, title: "", lines: [], paper: .a4),
            as: UTF8.self)
        // Count the dark modules covered by the row runs: exactly the matrix's dark modules.
        var covered = 0
        for line in content.split(separator: "\n") where line.hasSuffix(" re") {
            let fields = line.split(separator: " ")
            covered += Int(fields[2])!
            #expect(fields[3] == "1")
        }
        #expect(covered == matrix.modules.filter { $0 }.count)
        #expect(!content.contains("BT"))
    }

    // MARK: Text

    @Test func literalStringsEscapeDelimitersAndHighBytes() {
        #expect(PDFSheet.literal(Array("a(b)c\\d".utf8)) == "(a\\(b\\)c\\\\d)")
        #expect(PDFSheet.literal([0xE9, 0x80, 0x0A]) == "(\\351\\200\\012)")
    }

    @Test func winAnsiKeepsWhatHelveticaShowsAndReplacesTheRest() {
        #expect(WinAnsi.encode("Caf\u{E9}") == [0x43, 0x61, 0x66, 0xE9])
        // Decomposed é (e + U+0301) is composed first.
        #expect(WinAnsi.encode("Caf\u{65}\u{301}") == [0x43, 0x61, 0x66, 0xE9])
        #expect(
            WinAnsi.encode("\u{20AC}5 \u{2014} \u{201C}x\u{201D}") == [
                0x80, 0x35, 0x20, 0x97, 0x20, 0x93, 0x78, 0x94,
            ])
        // Outside WinAnsi: a cup of coffee, CJK, a control character, a combining mark with no
        // precomposed WinAnsi form (q + U+0301).
        #expect(WinAnsi.encode("\u{2615}\u{65E5}\u{7}q\u{301}") == Array("???q?".utf8))
        #expect(WinAnsi.encode("a\tb\nc") == Array("a b c".utf8))
    }

    @Test func longLinesShrinkToFitTheMargins() throws {
        let matrix = try QREncoder.encode(Payloads.request, level: .medium)
        let long = String(repeating: "W", count: 200)
        let content = String(
            decoding: PDFSheet.contentStream(code: matrix, title: long, lines: [], paper: .a4),
            as: UTF8.self)
        let line = try #require(content.split(separator: "\n").first { $0.hasPrefix("BT") })
        let fields = line.split(separator: " ")
        let size = try #require(Double(fields[2]))
        let x = try #require(Double(fields[4]))
        #expect(size < PDFSheet.titleSize)
        #expect(abs(x - PDFSheet.margin) < 0.01)
    }

    @Test func numbersHaveNoExponent() {
        #expect(PDFSheet.number(1e-9) == "0")
        #expect(PDFSheet.number(12.5) == "12.5")
        #expect(PDFSheet.number(-0.0625) == "-0.063")
        #expect(PDFSheet.number(595) == "595")
    }

    // MARK: Real pixels (poppler renders, zbar decodes)

    @Test(
        .enabled(if: Tools.runs(Tools.pdftoppm) && Tools.runs(Tools.zbarimg)),
        arguments: [PDFSheet.Paper.a4, .letter])
    func renderedSheetScansWithZbarimg(paper: PDFSheet.Paper) throws {
        let pdftoppm = try Tools.require(Tools.pdftoppm, "pdftoppm", package: "poppler-utils")
        let zbarimg = try Tools.require(Tools.zbarimg, "zbarimg", package: "zbar-tools")
        let directory = try TemporaryDirectory("printing-tests")
        defer { directory.remove() }
        for payload in [Payloads.request, Payloads.binary] {
            try Data(try Self.sheet(payload, paper: paper)).write(
                to: URL(fileURLWithPath: directory.file("sheet.pdf")))
            let render = try Tools.run(
                pdftoppm,
                [
                    "-r", "150", "-png", "-singlefile", directory.file("sheet.pdf"),
                    directory.file("sheet"),
                ])
            #expect(render.status == 0, "\(render.stderr)")
            let scan = try Tools.run(
                zbarimg, ["--quiet", "--raw", "-Sbinary", directory.file("sheet.png")])
            #expect(scan.status == 0, "\(scan.stderr)")
            var decoded = Array(scan.stdout)
            if decoded.last == 0x0A { decoded.removeLast() }  // zbarimg ends each symbol with LF
            #expect(decoded == payload)
        }
    }

    @Test(.enabled(if: Tools.runs(Tools.pdftoppm)))
    func renderedSheetScansWithOurScanner() throws {
        let pdftoppm = try Tools.require(Tools.pdftoppm, "pdftoppm", package: "poppler-utils")
        let directory = try TemporaryDirectory("printing-tests")
        defer { directory.remove() }
        try Data(try Self.sheet(Payloads.binary)).write(
            to: URL(fileURLWithPath: directory.file("sheet.pdf")))
        let render = try Tools.run(
            pdftoppm,
            [
                "-r", "150", "-gray", "-singlefile", directory.file("sheet.pdf"),
                directory.file("sheet"),
            ])
        #expect(render.status == 0, "\(render.stderr)")
        let image = try PGM.decode(
            Array(try Data(contentsOf: URL(fileURLWithPath: directory.file("sheet.pgm")))))
        #expect(abs(image.width - 1240) <= 1)  // A4 at 150 dpi
        #expect(scanned(image) == [Payloads.binary])
    }

    @Test(.enabled(if: Tools.runs(Tools.pdftotext)))
    func textExtractsAsWritten() throws {
        let pdftotext = try Tools.require(Tools.pdftotext, "pdftotext", package: "poppler-utils")
        let directory = try TemporaryDirectory("printing-tests")
        defer { directory.remove() }
        try Data(try Self.sheet()).write(to: URL(fileURLWithPath: directory.file("sheet.pdf")))
        let result = try Tools.run(pdftotext, ["-enc", "UTF-8", directory.file("sheet.pdf"), "-"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.contains("Olive Stall (Row 3)"))
        #expect(text.contains("4.50 EUR"))
        #expect(text.contains("to 0x5aAe\u{2026}BeAed"))
        #expect(text.contains("Caf\u{E9} (March\u{E9}) \\ #7"))
    }
}
