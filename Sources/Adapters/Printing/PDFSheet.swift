import QR

/// A one-page "pay me" sheet for a stall: the title (stall name) across the top, the code in
/// the middle as vector rectangles (crisp at any printer resolution), and the amount and payee
/// lines under it.
///
/// The PDF is written by hand, PDF 1.4, six objects: catalog, page tree, one page, the two
/// standard fonts Helvetica and Helvetica-Bold (never embedded: every PDF reader has them) and
/// one uncompressed content stream. Text is WinAnsi (see `WinAnsi`): characters outside it
/// print as `?`.
public enum PDFSheet {
    public enum Paper: Sendable, Equatable {
        case a4
        case letter

        /// Width and height in PDF points (1/72 inch). A4 is 210 × 297 mm, rounded to whole
        /// points as most producers do.
        public var size: (width: Int, height: Int) {
            switch self {
            case .a4: (595, 842)
            case .letter: (612, 792)
            }
        }
    }

    /// The whole PDF file.
    ///
    /// The code is drawn with its standard 4-module quiet zone kept white, as large as fits in
    /// 60 % of the page width and 45 % of its height. Text lines are centred and shrunk to fit
    /// the margins when too long.
    public static func render(
        code: QRMatrix, title: String, lines: [String], paper: Paper = .a4
    )
        -> [UInt8]
    {
        let content = contentStream(code: code, title: title, lines: lines, paper: paper)
        let (width, height) = paper.size
        var writer = PDFWriter()
        writer.object("<< /Type /Catalog /Pages 2 0 R >>")
        writer.object("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        writer.object(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(width) \(height)]"
                + " /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>")
        writer.object(
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
        writer.object(
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"
        )
        writer.stream(content)
        return writer.finish(root: 1)
    }

    // MARK: Page content

    static let margin = 54.0  // 3/4 inch
    static let titleSize = 28.0
    static let lineSize = 16.0

    static func contentStream(
        code: QRMatrix, title: String, lines: [String], paper: Paper
    ) -> [UInt8] {
        let pageWidth = Double(paper.size.width)
        let pageHeight = Double(paper.size.height)
        let textWidth = pageWidth - 2 * margin
        var ops = ""

        // Title, bold, centred.
        var cursor = pageHeight - margin
        let titleBytes = WinAnsi.encode(title)
        if !titleBytes.isEmpty {
            cursor -= titleSize
            ops += textOperator(
                titleBytes, font: "F2", bold: true, size: titleSize, width: textWidth,
                pageWidth: pageWidth, baseline: cursor)
            cursor -= titleSize * 0.5
        }

        // The code: the side (with quiet zone) a whole number of points per module is not
        // needed for vectors; modules are unit squares scaled by one `cm`.
        let quiet = 4
        let modulesAcross = Double(code.size + 2 * quiet)
        let side = min(pageWidth * 0.6, pageHeight * 0.45)
        let module = side / modulesAcross
        let left = (pageWidth - side) / 2
        let bottom = cursor - side
        // Origin at the symbol's bottom-left module; row 0 is the top row.
        let originX = left + Double(quiet) * module
        let originY = bottom + Double(quiet) * module
        ops +=
            "q 0 g \(number(module)) 0 0 \(number(module)) \(number(originX)) \(number(originY)) cm\n"
        var rectangles = 0
        for y in 0..<code.size {
            var x = 0
            while x < code.size {
                guard code[x, y] else {
                    x += 1
                    continue
                }
                var end = x
                while end < code.size, code[end, y] { end += 1 }
                ops += "\(x) \(code.size - 1 - y) \(end - x) 1 re\n"
                rectangles += 1
                x = end
            }
        }
        if rectangles > 0 { ops += "f\n" }
        ops += "Q\n"
        cursor = bottom

        // Amount, payee and the other lines.
        for line in lines {
            cursor -= lineSize * 1.5
            let bytes = WinAnsi.encode(line)
            guard !bytes.isEmpty else { continue }
            ops += textOperator(
                bytes, font: "F1", bold: false, size: lineSize, width: textWidth,
                pageWidth: pageWidth, baseline: cursor)
        }
        return Array(ops.utf8)
    }

    /// `BT /F size Tf x y Td (text) Tj ET`, centred, with the size reduced so the line fits
    /// `width`.
    static func textOperator(
        _ bytes: [UInt8], font: String, bold: Bool, size: Double, width: Double, pageWidth: Double,
        baseline: Double
    ) -> String {
        var size = size
        let natural = HelveticaMetrics.width(of: bytes, bold: bold, size: size)
        if natural > width { size = size * width / natural }
        let advance = HelveticaMetrics.width(of: bytes, bold: bold, size: size)
        let x = (pageWidth - advance) / 2
        return
            "BT /\(font) \(number(size)) Tf \(number(x)) \(number(baseline)) Td \(literal(bytes)) Tj ET\n"
    }

    /// A PDF literal string: `(`, `)` and `\` escaped with a backslash, bytes outside printable
    /// ASCII as three-digit octal escapes so the file stays 7-bit text.
    static func literal(_ bytes: [UInt8]) -> String {
        var out = "("
        for byte in bytes {
            switch byte {
            case 0x28, 0x29, 0x5C: out += "\\" + String(UnicodeScalar(byte))
            case 0x20...0x7E: out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let octal = String(byte, radix: 8)
                out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return out + ")"
    }

    /// A coordinate with at most three decimals and no exponent (PDF has no exponent syntax).
    static func number(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let sign = thousandths < 0 ? "-" : ""
        let magnitude = abs(thousandths)
        let whole = magnitude / 1000
        let fraction = magnitude % 1000
        guard fraction != 0 else { return "\(sign)\(whole)" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(whole).\(digits)"
    }
}

/// Appends numbered objects and remembers where each starts, for the cross-reference table.
struct PDFWriter {
    private(set) var bytes: [UInt8] = Array(
        "%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".unicodeScalars.map { UInt8($0.value) })
    private var offsets: [Int] = []

    mutating func object(_ body: String) {
        begin()
        append(body + "\nendobj\n")
    }

    mutating func stream(_ data: [UInt8]) {
        begin()
        append("<< /Length \(data.count) >>\nstream\n")
        bytes += data
        append("\nendstream\nendobj\n")
    }

    private mutating func begin() {
        offsets.append(bytes.count)
        append("\(offsets.count) 0 obj\n")
    }

    private mutating func append(_ text: String) { bytes += Array(text.utf8) }

    /// The cross-reference table (entries of exactly 20 bytes: 10-digit offset, 5-digit
    /// generation, `n`/`f`, CR LF… here space + LF, both allowed), trailer and `startxref`.
    mutating func finish(root: Int) -> [UInt8] {
        let xref = bytes.count
        append("xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n")
        for offset in offsets {
            let digits = String(offset)
            append(String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n")
        }
        append(
            "trailer\n<< /Size \(offsets.count + 1) /Root \(root) 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        )
        return bytes
    }
}
