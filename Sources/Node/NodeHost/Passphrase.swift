import Foundation
import NodeKit

#if canImport(Glibc)
import Glibc
#endif

/// Where a passphrase comes from, so every command runs unattended: `$TENDER_PASSPHRASE_FILE`
/// (first line, without its line ending, LF or CRLF), else a prompt with echo off when stdin is
/// a terminal.
public struct PassphraseSource: Sendable {
    public let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// With `confirm`, a prompted passphrase is asked twice (for a new key).
    public func read(purpose: String, confirm: Bool = false) throws(NodeError) -> String {
        if let path = environment["TENDER_PASSPHRASE_FILE"], !path.isEmpty {
            guard let data = FileManager.default.contents(atPath: path),
                let text = String(data: data, encoding: .utf8)
            else {
                throw NodeError(
                    .passphrase("cannot read the passphrase file \(path) (TENDER_PASSPHRASE_FILE)"))
            }
            // The first line, by bytes ("\r\n" is one Character in Swift). A file written on
            // Windows ends its line with CRLF: the CR is not part of the passphrase.
            var bytes = Array(text.utf8.prefix { $0 != UInt8(ascii: "\n") })
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            let line = String(decoding: bytes, as: UTF8.self)
            guard !line.isEmpty else {
                throw NodeError(.passphrase("the passphrase file \(path) is empty"))
            }
            return line
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw NodeError(
                .passphrase(
                    "no passphrase: set TENDER_PASSPHRASE_FILE to a file holding it, or run on a terminal"
                ))
        }
        let first = prompt("Passphrase for \(purpose): ")
        guard !first.isEmpty else { throw NodeError(.passphrase("the passphrase is empty")) }
        if confirm {
            guard prompt("Repeat the passphrase: ") == first else {
                throw NodeError(.passphrase("the passphrases do not match"))
            }
        }
        return first
    }

    /// Reads one line from the terminal with echo off, restoring the terminal afterwards.
    private func prompt(_ text: String) -> String {
        FileHandle.standardError.write(Data(text.utf8))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true) ?? ""
    }
}
