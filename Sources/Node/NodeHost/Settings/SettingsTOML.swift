import NodeKit
import TOMLKit

/// What a settings file's messages need: how a place in it reads, and what is said of a key
/// it does not know or misses.
protocol SettingsLayout: Decodable {
    /// `path` as a person finds it in the file (`sync.interval`, `limits[0]`, `chain 1`).
    static func place(_ path: [SettingsTOML.Step]) -> String
    /// The message for `key`, unknown at `path` (its section).
    static func unknown(_ key: String, at path: [SettingsTOML.Step]) -> String
    /// The message for `key`, missing at `path` (its table).
    static func missing(_ key: String, at path: [SettingsTOML.Step]) -> String
    /// The message for `path` holding something other than a table, when not "must be a
    /// section".
    static func notATable(at path: [SettingsTOML.Step]) -> String?
}

extension SettingsLayout {
    static func notATable(at path: [SettingsTOML.Step]) -> String? { nil }

    static func missing(_ key: String, at path: [SettingsTOML.Step]) -> String {
        "\(place(path)) needs \(key)"
    }
}

/// The one way Tender reads its settings files (node.toml, chains.toml): the text parsed,
/// environment overrides set into the table, then strict Codable decoding (a key the file's
/// type does not name is refused, naming it), each mistake a `NodeError.usage` that names the
/// file and the place.
enum SettingsTOML {
    /// A step of a coding path: a key, or an index in an array of tables.
    enum Step: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    static func table(_ text: String, name: String) throws(NodeError) -> TOMLTable {
        do { return try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw NodeError(
                .usage("\(name) is not TOML: line \(error.source.begin.line): \(error.description)")
            )
        } catch { throw NodeError(.usage("\(name) is not TOML: \(error)")) }
    }

    static func decode<T: SettingsLayout>(
        _ type: T.Type, from table: TOMLTable, name: String
    ) throws(NodeError) -> T {
        do { return try TOMLDecoder(strictDecoding: true).decode(T.self, from: table) } catch {
            throw NodeError(.usage("\(name): \(describe(error, in: T.self))"))
        }
    }

    /// What kind of value an environment override is, to set it into the table typed.
    enum Kind { case string, bool, number, duration }

    /// Sets `text` (from the environment's `variable`) at `section`.`key` of `table`, typed
    /// as `kind`.
    static func override(
        _ table: TOMLTable, section: String, key: String, kind: Kind, text: String,
        variable: String
    ) throws(NodeError) {
        if table[section] == nil { table[section] = TOMLTable() }
        guard let entries = table[section]?.table else { return }
        switch kind {
        case .string: entries[key] = text
        case .bool:
            switch text.lowercased() {
            case "true", "1", "yes", "on": entries[key] = true
            case "false", "0", "no", "off": entries[key] = false
            default: throw NodeError(.usage("\(variable) must be true or false, got '\(text)'"))
            }
        case .number:
            guard let number = Double(text) else {
                throw NodeError(.usage("\(variable) must be a number, got '\(text)'"))
            }
            entries[key] = number
        case .duration:
            // "30s" or "2m" as in the file; plain seconds as a number.
            guard let number = Double(text) else {
                guard DurationText.seconds(text) != nil else {
                    throw NodeError(
                        .usage(
                            "\(variable) must be seconds or a duration (30s, 5m, 1h), got '\(text)'"
                        ))
                }
                entries[key] = text
                return
            }
            entries[key] = number
        }
    }

    static func describe<T: SettingsLayout>(_ error: any Error, in layout: T.Type) -> String {
        if let error = error as? UnexpectedKeysError,
            let first = error.keys.min(by: { $0.key < $1.key })
        {
            let path = steps(first.value)
            return T.unknown(first.key, at: Array(path.dropLast()))
        }
        if let mismatch = error as? SettingMismatch {
            return "\(T.place(steps(mismatch.path))) must be \(mismatch.expected)"
        }
        if let error = error as? DecodingError {
            switch error {
            case .keyNotFound(let key, let context):
                // Some decoders end the path with the key itself, some do not.
                var path = steps(context.codingPath)
                if path.last == .key(key.stringValue) { path.removeLast() }
                return T.missing(key.stringValue, at: path)
            case .typeMismatch(_, let context):
                let path = steps(context.codingPath)
                return T.notATable(at: path)
                    ?? "\(T.place(path)) must be a section ([\(T.place(path))])"
            case .valueNotFound(_, let context), .dataCorrupted(let context):
                return "\(T.place(steps(context.codingPath))): \(context.debugDescription)"
            @unknown default: break
            }
        }
        return "\(error)"
    }

    static func steps(_ path: [any CodingKey]) -> [Step] {
        path.map { key in key.intValue.map { .index($0) } ?? .key(key.stringValue) }
    }
}

/// A value of the wrong type: `expected` says what it must be ("a number").
struct SettingMismatch: Error {
    let path: [any CodingKey]
    let expected: String
}

/// A value of a settings file, its type checked as it is read: a mistake says what the value
/// must be, at its place.
struct Setting<Value: SettingValue>: Decodable, Sendable {
    let value: Value

    init(from decoder: any Decoder) throws {
        guard let value = Value.read(try decoder.singleValueContainer()) else {
            throw SettingMismatch(path: decoder.codingPath, expected: Value.expected)
        }
        self.value = value
    }
}

/// What a settings value may be, and how it is read.
protocol SettingValue: Sendable {
    /// What a value of the wrong type is told it must be ("a number").
    static var expected: String { get }
    static func read(_ container: any SingleValueDecodingContainer) -> Self?
}

typealias SettingNumber = Setting<Double>
typealias SettingDuration = Setting<DurationText>
typealias SettingBool = Setting<Bool>
typealias SettingString = Setting<String>
typealias SettingInteger = Setting<Int64>
typealias SettingDigits = Setting<Digits>

/// A number: TOML's integer or float.
extension Double: SettingValue {
    static var expected: String { "a number" }
    static func read(_ container: any SingleValueDecodingContainer) -> Double? {
        (try? container.decode(Double.self)) ?? (try? container.decode(Int64.self)).map(Double.init)
    }
}

extension Bool: SettingValue {
    static var expected: String { "true or false" }
    static func read(_ container: any SingleValueDecodingContainer) -> Bool? {
        try? container.decode(Bool.self)
    }
}

extension String: SettingValue {
    static var expected: String { "a string" }
    static func read(_ container: any SingleValueDecodingContainer) -> String? {
        try? container.decode(String.self)
    }
}

extension Int64: SettingValue {
    static var expected: String { "a whole number" }
    static func read(_ container: any SingleValueDecodingContainer) -> Int64? {
        try? container.decode(Int64.self)
    }
}

/// A string, or a TOML integer as its digits (an amount in base units, seconds).
struct Digits: SettingValue {
    let text: String

    static var expected: String { "a string" }
    static func read(_ container: any SingleValueDecodingContainer) -> Digits? {
        ((try? container.decode(String.self))
            ?? (try? container.decode(Int64.self)).map(String.init))
            .map(Digits.init)
    }
}

/// Seconds: a number (`30`, `0.5`), or a string with its unit (`"30s"`, `"500ms"`, `"5m"`,
/// `"1h"`, `"1d"`), as a limit's period is written.
struct DurationText: SettingValue {
    let seconds: Double

    static var expected: String { "seconds or a duration (30s, 5m, 1h)" }
    static func read(_ container: any SingleValueDecodingContainer) -> DurationText? {
        if let number = Double.read(container) { return DurationText(seconds: number) }
        return (try? container.decode(String.self)).flatMap(seconds).map(DurationText.init)
    }

    /// `text`'s seconds: digits (a decimal point allowed) and one unit of ms, s, m, h or d.
    static func seconds(_ text: String) -> Double? {
        let units: [(String, Double)] = [
            ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400),
        ]
        guard let (unit, scale) = units.first(where: { text.hasSuffix($0.0) }) else { return nil }
        let digits = text.dropLast(unit.count)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let number = Double(digits), number.isFinite
        else { return nil }
        return number * scale
    }
}
