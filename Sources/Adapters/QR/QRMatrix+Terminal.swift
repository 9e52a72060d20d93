extension QRMatrix {
    /// The symbol as text for a terminal: each character covers one module column and two
    /// module rows with UTF-8 half blocks (`▀` top, `▄` bottom, `█` both, space neither), so
    /// modules come out roughly square. Lines end with `\n`.
    ///
    /// Blocks draw in the terminal's foreground colour. On a light background (default)
    /// blocks are the dark modules; `inverted` draws the light modules instead, for dark
    /// terminals where the foreground is light. `border` light modules surround the symbol;
    /// rows past the last (odd total) are left blank, never drawn.
    public func terminalText(inverted: Bool = false, border: Int = 2) -> String {
        let border = max(0, border)
        let side = size + 2 * border
        func ink(_ x: Int, _ y: Int) -> Bool {
            guard y < side else { return false }
            return self[x - border, y - border] != inverted
        }
        var text = ""
        text.reserveCapacity((side + 1) / 2 * (side * 3 + 1))
        for y in stride(from: 0, to: side, by: 2) {
            for x in 0..<side {
                switch (ink(x, y), ink(x, y + 1)) {
                case (true, true): text += "█"
                case (true, false): text += "▀"
                case (false, true): text += "▄"
                case (false, false): text += " "
                }
            }
            text += "\n"
        }
        return text
    }
}
