import QR
import Testing

@Suite struct TerminalTextTests {
    /// Reads half blocks back into rows of "ink" (foreground) cells.
    static func inkRows(_ text: String) -> [[Bool]] {
        var rows: [[Bool]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            var top: [Bool] = []
            var bottom: [Bool] = []
            for character in line {
                switch character {
                case "█": top.append(true); bottom.append(true)
                case "▀": top.append(true); bottom.append(false)
                case "▄": top.append(false); bottom.append(true)
                case " ": top.append(false); bottom.append(false)
                default: Issue.record("unexpected character \(character)")
                }
            }
            rows += [top, bottom]
        }
        return rows
    }

    @Test(arguments: [false, true], [0, 1, 2, 4])
    func halfBlocksParseBackToTheMatrix(inverted: Bool, border: Int) throws {
        let matrix = try QREncoder.encode(Array("tender:terminal".utf8))
        let text = matrix.terminalText(inverted: inverted, border: border)
        let rows = Self.inkRows(text)
        let side = matrix.size + 2 * border
        #expect(rows.count == (side + 1) / 2 * 2)
        #expect(text.hasSuffix("\n"))
        for y in 0..<side {
            #expect(rows[y].count == side)
            for x in 0..<side {
                let dark = matrix[x - border, y - border]
                #expect(rows[y][x] == (dark != inverted), "module \(x),\(y)")
            }
        }
        // An odd side leaves the last half row blank in both modes.
        if side % 2 == 1 { #expect(rows[side].allSatisfy { !$0 }) }
    }

    @Test func invertedDrawsTheOtherModules() throws {
        let matrix = try QREncoder.encode([0, 1, 2])
        let plain = Self.inkRows(matrix.terminalText())
        let inverted = Self.inkRows(matrix.terminalText(inverted: true))
        let side = matrix.size + 4
        for y in 0..<side {
            for x in 0..<side { #expect(plain[y][x] != inverted[y][x]) }
        }
    }
}

@Suite struct SVGTests {
    @Test func documentShape() throws {
        let matrix = try QREncoder.encode(Array("svg".utf8))
        let svg = matrix.svg(moduleSize: 5, border: 4)
        let side = matrix.size + 8
        #expect(svg.contains("viewBox=\"0 0 \(side) \(side)\""))
        #expect(svg.contains("width=\"\(side * 5)\""))
        #expect(svg.contains("shape-rendering=\"crispEdges\""))
        #expect(svg.components(separatedBy: "<path").count == 2)
    }

    /// Area of the path's runs equals the number of dark modules.
    @Test func pathCoversExactlyTheDarkModules() throws {
        let matrix = try QREncoder.encode(Array("count the modules".utf8))
        let svg = matrix.svg(border: 0)
        let d = svg.components(separatedBy: " d=\"")[1].components(separatedBy: "\"")[0]
        var covered = Set<Int>()
        for run in d.split(separator: "M") {
            let parts = run.split(whereSeparator: { $0 == " " || $0 == "h" || $0 == "v" })
            let x = Int(parts[0])!
            let y = Int(parts[1])!
            let length = Int(parts[2])!
            for i in 0..<length { #expect(covered.insert(y * matrix.size + x + i).inserted) }
        }
        let dark = Set(matrix.modules.indices.filter { matrix.modules[$0] })
        #expect(covered == dark)
    }
}
