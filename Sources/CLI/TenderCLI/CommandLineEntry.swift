import ArgumentParser
import Foundation

/// The CLI's entry: ArgumentParser's, with one form for every error (`tender: error: …`, then
/// the usage of the command that was meant, not the root's), a mistyped command named with
/// what it was probably meant to be, and `tender help` of no command a usage error.
extension TenderCommand {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let mistake = CommandPath.mistake(in: arguments) {
            fail(mistake.message, usage: mistake.command)
        }
        let command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            exit(parsing: error)
        }
        do {
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                var command = command
                try command.run()
            }
        } catch  where CommandPath.names(of: type(of: command)).isEmpty {
            exit(parsing: error)  // ArgumentParser's own commands (help): its words
        } catch let error as CleanExit {
            exit(parsing: error)  // a command group run alone: its help
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue)  // already said (Failure.report)
        } catch let error as ValidationError {
            fail(error.message, usage: type(of: command))
        } catch {
            let code = (Failure.report(error) as? ExitCode)?.rawValue ?? Failure.usage
            Foundation.exit(code)
        }
    }

    /// A parse error or a help request, as ArgumentParser words it, with the CLI's prefix.
    private static func exit(parsing error: any Error) -> Never {
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { print(message) }
            Foundation.exit(code.rawValue)
        }
        // ArgumentParser's "Error: WHAT\nUsage: …": WHAT is the message, the rest its usage.
        let text = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        Failure.say(
            String(lines[0]), code: "usage", status: code.rawValue,
            after: lines.count > 1 ? lines[1] + "\n" : "")
        Foundation.exit(code.rawValue)
    }

    /// `tender: error: MESSAGE`, the usage of `command` and where its help is; exit 64.
    private static func fail(_ message: String, usage command: any ParsableCommand.Type) -> Never {
        let path = CommandPath.names(of: command).joined(separator: " ")
        Failure.say(
            message, code: "usage", status: Failure.usage,
            after: """
                Usage: \(usageString(for: command))
                  See '\(path) --help' for more information.

                """)
        Foundation.exit(Failure.usage)
    }
}

/// The commands named on a command line, checked before ArgumentParser reads it: a word where
/// a command's subcommand is due that names none of them is a mistake.
enum CommandPath {
    struct Mistake {
        let message: String
        /// The command whose subcommand was mistyped.
        let command: any ParsableCommand.Type
    }

    static func mistake(in arguments: [String]) -> Mistake? {
        var words = arguments[...]
        let help = words.first == "help"
        if help { words = words.dropFirst() }
        var command: any ParsableCommand.Type = TenderCommand.self
        for word in words {
            // Options end the commands (a value after them is not a command).
            if word.hasPrefix("-") { break }
            let configuration = command.configuration
            if configuration.subcommands.isEmpty { break }
            if let next = configuration.subcommands.first(where: {
                $0._commandName == word || $0.configuration.aliases.contains(word)
            }) {
                command = next
                continue
            }
            // `tender chain help`, or an argument of a default subcommand (`payments ID`).
            if word == "help" || configuration.defaultSubcommand != nil { break }
            let path = names(of: command).joined(separator: " ")
            let known = configuration.subcommands.map { $0._commandName }
            let guess = closest(to: word, among: known).map { " (did you mean '\($0)'?)" } ?? ""
            let message =
                help
                ? "no help for '\(word)': '\(path)' has no such command\(guess)"
                : "'\(word)' is not a command of '\(path)'\(guess)"
            return Mistake(message: message, command: command)
        }
        return nil
    }

    /// The names from the root down to `command` (none for a command outside the tree:
    /// ArgumentParser's own).
    static func names(of command: any ParsableCommand.Type) -> [String] {
        var path: [String] = []
        func walk(_ node: any ParsableCommand.Type, _ trail: [String]) -> Bool {
            let trail = trail + [node._commandName]
            if node == command {
                path = trail
                return true
            }
            return node.configuration.subcommands.contains { walk($0, trail) }
        }
        _ = walk(TenderCommand.self, [])
        return path
    }

    /// The known word nearest `word`: within two edits (one for a word of four letters or
    /// fewer), or the only one it begins.
    static func closest(to word: String, among known: [String]) -> String? {
        let word = word.lowercased()
        // Far longer than any command: nothing near it, and no quadratic work on a huge word.
        guard word.count <= (known.map(\.count).max() ?? 0) + 2 else { return nil }
        let scored = known.map { ($0, distance(Array(word), Array($0))) }
        if let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= (word.count <= 4 ? 1 : 2) {
            return best.0
        }
        let prefixed = known.filter { $0.hasPrefix(word) }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Levenshtein distance, a transposition counted as one edit.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var rows = [Array(0...b.count)]
        for i in 1...a.count {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], rows[i - 2][j - 2] + 1)
                }
            }
            rows.append(row)
        }
        return rows[a.count][b.count]
    }
}
