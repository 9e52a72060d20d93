import Foundation
import Synchronization

/// A one-line progress bar on standard error (made only when that is a terminal). Lines
/// printed through it go to standard output above the bar: the bar is cleared, the line
/// written, the bar drawn again.
final class ProgressBar: Sendable {
    private struct State {
        var done = 0
        var total: Int
        var drawn = false
    }

    private let state: Mutex<State>
    private let unit: String

    init(total: Int, unit: String) {
        self.state = Mutex(State(total: total))
        self.unit = unit
    }

    /// `count` more done (the total grows if the work turned out larger).
    func advance(by count: Int) {
        state.withLock { state in
            state.done += count
            state.total = max(state.total, state.done)
            draw(&state)
        }
    }

    /// Writes `line` to standard output with the bar kept below it.
    func print(_ line: String) {
        state.withLock { state in
            clear(&state)
            say(line)
            draw(&state)
        }
    }

    /// Takes the bar off the screen (before the summary).
    func finish() { state.withLock { clear(&$0) } }

    private func draw(_ state: inout State) {
        guard state.total > 0 else { return }
        let text = "\r\u{1B}[2K" + Self.render(done: state.done, total: state.total, unit: unit)
        FileHandle.standardError.write(Data(text.utf8))
        state.drawn = true
    }

    private func clear(_ state: inout State) {
        guard state.drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        state.drawn = false
    }

    /// `[██████░░░░░░░░░░░░░░]  30 % 300/1000 coins settled`.
    static func render(done: Int, total: Int, unit: String, width: Int = 24) -> String {
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar =
            String(repeating: "█", count: filled)
            + String(repeating: "░", count: width - filled)
        let percent = Int((fraction * 100).rounded(.down))
        return
            "[\(bar)] \(String(repeating: " ", count: 3 - String(percent).count))\(percent) % \(done)/\(total) \(unit)"
    }
}
