import Foundation
import QR
import Scanning

/// How wide a code a terminal can show: a payment's animated code is cut into fragments
/// small enough that each frame fits the terminal's columns (a wrapped code cannot be read).
enum TerminalFit {
    /// The terminal's columns on standard output (nil: not a terminal).
    static var columns: Int? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0,
            size.ws_col > 0
        else { return nil }
        return Int(size.ws_col)
    }

    /// The largest fragment whose frames are at most `columns` wide on a terminal; nil when
    /// even the smallest is wider.
    static func fragment(fitting columns: Int, encoding: AnimatedCode.Encoding) -> Int? {
        let lengths = AnimatedCode.fragmentLengths(encoding)
        func width(_ fragment: Int) -> Int {
            // Several fragments' worth: an animated code, whose frames all have one size.
            guard
                var code = try? AnimatedCode(
                    payload: [UInt8](repeating: 0xA5, count: fragment * 4), encoding: encoding,
                    fragmentLength: fragment),
                let matrix = try? code.nextMatrix()
            else { return .max }
            return matrix.terminalText().split(separator: "\n").map(\.count).max() ?? .max
        }
        var (low, high) = (lengths.lowerBound, AnimatedCode.defaultFragmentLength(encoding))
        var best: Int?
        while low <= high {
            let middle = (low + high) / 2
            if width(middle) <= columns {
                best = middle
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return best
    }
}
