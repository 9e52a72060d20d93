/// Text for the PDF sheet in the only encoding the standard 14 fonts are sure to show without
/// embedding a font: WinAnsiEncoding (PDF 32000-1, Annex D), whose 0xA0–0xFF half equals
/// Latin-1 and whose 0x80–0x9F row holds € ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ.
/// Anything else (other scripts, emoji, control characters, the five unassigned codes) becomes
/// `?`: the sheet prints a placeholder rather than a wrong glyph, and the QR code carries the
/// exact text anyway.
enum WinAnsi {
    /// Unicode scalars of 0x80–0x9F; nil marks the five codes WinAnsi leaves unassigned.
    private static let row80: [Unicode.Scalar?] = [
        "\u{20AC}", nil, "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}",
        "\u{02C6}", "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", nil, "\u{017D}", nil,
        nil, "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}",
        "\u{02DC}", "\u{2122}", "\u{0161}", "\u{203A}", "\u{0153}", nil, "\u{017E}", "\u{0178}",
    ]

    private static let fromUnicode: [UInt32: UInt8] = {
        var table: [UInt32: UInt8] = [:]
        for (index, scalar) in row80.enumerated() {
            if let scalar { table[scalar.value] = UInt8(0x80 + index) }
        }
        return table
    }()

    static let replacement: UInt8 = 0x3F  // "?"

    /// The WinAnsi byte for one scalar, or `?`.
    static func byte(for scalar: Unicode.Scalar) -> UInt8 {
        let value = scalar.value
        switch value {
        case 0x20...0x7E, 0xA0...0xFF: return UInt8(value)
        default: return fromUnicode[value] ?? replacement
        }
    }

    /// Text as WinAnsi bytes, one byte per scalar after canonical composition (so "e" + U+0301
    /// prints as "é", not "e?"). Line breaks and tabs become spaces.
    static func encode(_ text: String) -> [UInt8] {
        composed(text).unicodeScalars.map { scalar in
            switch scalar {
            case "\n", "\r", "\t": return 0x20
            default: return byte(for: scalar)
            }
        }
    }

    /// NFC without Foundation: compose the pairs WinAnsi can show (base letter + one combining
    /// mark among grave, acute, circumflex, tilde, diaeresis, ring, cedilla, caron), which is
    /// what a stall name typed on a phone keyboard may carry decomposed.
    static func composed(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for character in text {
            let scalars = Array(character.unicodeScalars)
            if scalars.count == 2, let single = composePair(scalars[0], scalars[1]) {
                out.append(single)
            } else {
                out.append(contentsOf: scalars)
            }
        }
        return String(out)
    }

    private static func composePair(
        _ base: Unicode.Scalar, _ mark: Unicode.Scalar
    ) -> Unicode.Scalar? {
        // Search Latin-1 and the row80 letters for a scalar whose canonical decomposition is
        // exactly base + mark; String comparison is canonical equivalence in Swift.
        let pair = String(String.UnicodeScalarView([base, mark]))
        for value in UInt32(0xC0)...0xFF {
            if let candidate = Unicode.Scalar(value), String(Character(candidate)) == pair {
                return candidate
            }
        }
        for case let candidate? in row80 where String(Character(candidate)) == pair {
            return candidate
        }
        return nil
    }
}

/// Advance widths (1/1000 em) of the standard Helvetica and Helvetica-Bold for WinAnsi codes
/// 32…255, from Adobe's core-font metrics (AFM), used to centre and fit text. Generated from
/// the AFM tables shipped in reportlab (`reportlab.pdfbase._fontdata_widths_helvetica*`);
/// unassigned codes are 0 and never occur (they are mapped to `?` first).
enum HelveticaMetrics {
    static func width(of bytes: [UInt8], bold: Bool, size: Double) -> Double {
        let table = bold ? helveticaBold : helvetica
        let units = bytes.reduce(0) { $0 + Int($1 >= 32 ? table[Int($1) - 32] : 0) }
        return Double(units) * size / 1000
    }

    static let helvetica: [UInt16] = [
        278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
        1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
        333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
        556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 350,
        556, 350, 222, 556, 333, 1000, 556, 556, 333, 1000, 667, 333, 1000, 350, 611, 350,
        350, 222, 222, 333, 333, 350, 556, 1000, 333, 1000, 500, 333, 944, 350, 500, 667,
        278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333,
        400, 584, 333, 333, 333, 556, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611,
        667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
        722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
        556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500,
    ]
    static let helveticaBold: [UInt16] = [
        278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
        975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
        333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
        611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584, 350,
        556, 350, 278, 556, 500, 1000, 556, 556, 333, 1000, 667, 333, 1000, 350, 611, 350,
        350, 278, 278, 500, 500, 350, 556, 1000, 333, 1000, 556, 333, 944, 350, 500, 667,
        278, 333, 556, 556, 556, 556, 280, 556, 333, 737, 370, 556, 584, 333, 737, 333,
        400, 584, 333, 333, 333, 611, 556, 278, 333, 333, 365, 556, 834, 834, 834, 611,
        722, 722, 722, 722, 722, 722, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
        722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
        556, 556, 556, 556, 556, 556, 889, 556, 556, 556, 556, 556, 278, 278, 278, 278,
        611, 611, 611, 611, 611, 611, 611, 584, 611, 611, 611, 611, 611, 556, 611, 556,
    ]
}
