import Foundation
import Testing

@testable import Keystore

/// Parsing: every malformed field is named, unknown versions and algorithms are told apart.
@Suite struct KeyFileJSONTests {
    static let file = try! KeyFileTests.sealed()

    /// The sample file as a JSON object, edited by `change`, then parsed.
    static func parse(_ change: (inout [String: Any]) -> Void) -> KeystoreError? {
        var object =
            try! JSONSerialization.jsonObject(with: file.json()) as! [String: Any]
        change(&object)
        let data = try! JSONSerialization.data(withJSONObject: object)
        return keystoreError { _ = try KeyFile(json: data) }
    }

    static func edit(
        _ section: String, _ change: @escaping (inout [String: Any]) -> Void
    )
        -> (inout [String: Any]) -> Void
    {
        { object in
            var inner = object[section] as! [String: Any]
            change(&inner)
            object[section] = inner
        }
    }

    @Test func writesTheDocumentedLayout() throws {
        let text = String(decoding: Self.file.json(), as: UTF8.self)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Self.file.json()) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        #expect(object["address"] as? String == Self.file.address)
        let kdf = try #require(object["kdf"] as? [String: Any])
        #expect(kdf["name"] as? String == "scrypt")
        #expect(kdf["n"] as? Int == 1024)
        #expect(kdf["r"] as? Int == 8)
        #expect(kdf["p"] as? Int == 1)
        #expect(kdf["salt"] as? String == hex(Self.file.salt))
        let cipher = try #require(object["cipher"] as? [String: Any])
        #expect(cipher["name"] as? String == "chacha20-poly1305")
        #expect(cipher["nonce"] as? String == hex(Self.file.nonce))
        #expect(cipher["ciphertext"] as? String == hex(Self.file.ciphertext))
        #expect(text.hasPrefix("{\n  \"version\": 1,\n"))
        #expect(text.hasSuffix("}\n"))
    }

    @Test func refusesTextThatIsNotJSON() {
        for text in ["", "not json", "[1, 2]", "{\"version\": 1", "\u{0}"] {
            let error = keystoreError { _ = try KeyFile(json: Data(text.utf8)) }
            #expect(error?.kind == .malformed, "\(text)")
        }
        #expect(keystoreError { _ = try KeyFile(json: Data("nope".utf8)) }?.field == nil)
    }

    @Test(arguments: [
        "version", "address", "kdf", "kdf.name", "kdf.n", "kdf.r", "kdf.p", "kdf.salt", "cipher",
        "cipher.name", "cipher.nonce", "cipher.ciphertext",
    ])
    func namesAMissingField(field: String) {
        let parts = field.split(separator: ".").map(String.init)
        let error = Self.parse { object in
            if parts.count == 1 {
                object[parts[0]] = nil
            } else {
                Self.edit(parts[0]) { $0[parts[1]] = nil }(&object)
            }
        }
        #expect(error?.kind == .malformed)
        #expect(error?.field == field)
        #expect(error?.message == "malformed key file: field \"\(field)\" is missing")
    }

    @Test func namesAFieldOfTheWrongType() {
        let wrongN = Self.parse(Self.edit("kdf") { $0["n"] = "1024" })
        #expect(wrongN?.kind == .malformed)
        #expect(wrongN?.field == "kdf.n")
        let wrongSalt = Self.parse(Self.edit("kdf") { $0["salt"] = 5 })
        #expect(wrongSalt?.field == "kdf.salt")
        let wrongCipher = Self.parse { $0["cipher"] = "chacha20-poly1305" }
        #expect(wrongCipher?.field == "cipher")
        let nullAddress = Self.parse { $0["address"] = NSNull() }
        #expect(nullAddress?.field == "address")
    }

    @Test func namesBadHex() {
        let cases: [(String, (inout [String: Any]) -> Void)] = [
            ("kdf.salt", Self.edit("kdf") { $0["salt"] = "zz" + hex(Self.file.salt.dropFirst()) }),
            ("kdf.salt", Self.edit("kdf") { $0["salt"] = hex(Self.file.salt.prefix(15)) }),
            ("kdf.salt", Self.edit("kdf") { $0["salt"] = "abc" }),
            ("cipher.nonce", Self.edit("cipher") { $0["nonce"] = hex(Self.file.nonce.prefix(11)) }),
            (
                "cipher.ciphertext",
                Self.edit("cipher") { $0["ciphertext"] = hex(Self.file.ciphertext.prefix(47)) }
            ),
            ("cipher.ciphertext", Self.edit("cipher") { $0["ciphertext"] = "0x" }),
            ("address", { $0["address"] = String(Self.file.address.dropFirst(2)) }),
            ("address", { $0["address"] = Self.file.address + "00" }),
            ("address", { $0["address"] = "0x" + String(repeating: "g", count: 40) }),
        ]
        for (field, change) in cases {
            let error = Self.parse(change)
            #expect(error?.kind == .malformed)
            #expect(error?.field == field)
        }
    }

    @Test func acceptsAChecksummedAddressAndPrefixedHex() throws {
        var object = try JSONSerialization.jsonObject(with: Self.file.json()) as! [String: Any]
        object["address"] = Self.file.address.uppercased().replacingOccurrences(
            of: "0X", with: "0x")
        Self.edit("cipher") { $0["nonce"] = "0x" + hex(Self.file.nonce) }(&object)
        object["comment"] = "unknown fields are ignored"
        let parsed = try KeyFile(json: JSONSerialization.data(withJSONObject: object))
        #expect(parsed == Self.file)
    }

    @Test func refusesOtherVersions() {
        for version: Any in [0, 2, 99] {
            let error = Self.parse { $0["version"] = version }
            #expect(error?.kind == .unsupportedVersion)
        }
        // A future version may change everything else: its version is what gets reported.
        let future = keystoreError { _ = try KeyFile(json: Data("{\"version\": 2}".utf8)) }
        #expect(future?.kind == .unsupportedVersion)
    }

    @Test func refusesOtherAlgorithms() {
        let kdf = Self.parse(Self.edit("kdf") { $0["name"] = "pbkdf2" })
        #expect(kdf?.kind == .unsupportedKDF)
        #expect(kdf?.message.contains("pbkdf2") == true)
        let cipher = Self.parse(Self.edit("cipher") { $0["name"] = "aes-128-ctr" })
        #expect(cipher?.kind == .unsupportedCipher)
    }

    /// A crafted file must not make the loader allocate gigabytes before the passphrase check.
    @Test func refusesExcessiveCosts() {
        let huge = Self.parse(Self.edit("kdf") { $0["n"] = 1 << 30 })
        #expect(huge?.kind == .unsupportedKDF)
        let notPowerOfTwo = Self.parse(Self.edit("kdf") { $0["n"] = 1000 })
        #expect(notPowerOfTwo?.kind == .unsupportedKDF)
        let parallel = Self.parse(Self.edit("kdf") { $0["p"] = 1_000_000 })
        #expect(parallel?.kind == .unsupportedKDF)
    }
}
