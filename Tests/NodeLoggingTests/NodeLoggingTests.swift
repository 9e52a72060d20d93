import Foundation
import Keystore
import Logging
import NodeLogging
import Synchronization
import Testing

/// The node's log lines: secrets never written (the token by value; phrases and blobs by
/// shape), ids kept, text and JSON formats.
@Suite struct NodeLoggingTests {
    static let token = "3f" + String(repeating: "a1", count: 31)
    static let requestID = String(repeating: "c7", count: 32)

    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    func logger(_ format: NodeLogHandler.Format, _ lines: Lines) -> Logger {
        Logger(label: "tender.test") { label in
            NodeLogHandler(
                label: label, level: .debug, format: format,
                redactor: Redactor(secrets: [Self.token]), write: { lines.append($0) })
        }
    }

    @Test func secretsAreTakenOutAndIdsKept() throws {
        let phrase = try Mnemonic.generate(wordCount: 24).phrase
        let note = String(repeating: "0123456789abcdef", count: 40)
        let base64 = Data((0..<300).map { UInt8($0 % 256) }).base64EncodedString()
        let lines = Lines()
        let log = logger(.text, lines)
        log.info("request \(Self.requestID) paid; Authorization: Bearer \(Self.token)")
        log.warning("restored from \(phrase) ok")
        log.error("bad file \(note)", metadata: ["body": "\(base64)", "payee": "0xAbC"])
        let text = lines.all.joined()
        #expect(!text.contains(Self.token))
        #expect(!text.contains(note) && !text.contains(base64))
        let words = phrase.split(separator: " ")
        for start in 0..<(words.count - 2) {
            #expect(!text.contains(words[start..<start + 3].joined(separator: " ")))
        }
        #expect(text.contains("[redacted phrase]"))
        #expect(text.contains("[redacted 640 chars]"))
        #expect(text.contains("Bearer [redacted]"))
        #expect(text.contains(Self.requestID), "ids stay readable")
        #expect(lines.all[0].contains(" info tender.test: request "))
        #expect(lines.all[2].hasSuffix("payee=0xAbC\n"))
    }

    @Test func aFewDictionaryWordsAreNotAPhrase() {
        let text = "the coin was spent and the change is on the way home"
        #expect(Redactor().scrub(text) == text)
    }

    @Test func jsonLinesCarryTheMetadataRedacted() throws {
        let lines = Lines()
        logger(.json, lines).notice(
            "sync pass", metadata: ["token": "\(Self.token)", "open": "2"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(lines.all[0].utf8)) as? [String: String])
        #expect(object["message"] == "sync pass" && object["level"] == "notice")
        #expect(object["label"] == "tender.test" && object["open"] == "2")
        #expect(object["token"] == "[redacted]")
        #expect(object["time"]?.hasSuffix("Z") == true)
    }
}
