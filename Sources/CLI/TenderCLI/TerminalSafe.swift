/// Text that came from outside (memos, scanned codes, files) made safe to print on a terminal:
/// control characters (an escape sequence can clear the screen or draw fake output) and
/// bidirectional overrides (which reorder what is shown) become visible `\u{…}` escapes.
/// `keeping` lists characters left as they are (a scanned text's line breaks).
func terminalSafe(_ text: String, keeping kept: Set<Unicode.Scalar> = []) -> String {
    var safe = ""
    for scalar in text.unicodeScalars {
        let isControl = scalar.properties.generalCategory == .control
        let isBidiControl = scalar.properties.isBidiControl
        if (isControl || isBidiControl) && !kept.contains(scalar) {
            safe += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        } else {
            safe.unicodeScalars.append(scalar)
        }
    }
    return safe
}
