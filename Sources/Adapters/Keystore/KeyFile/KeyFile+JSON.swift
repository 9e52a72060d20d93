import Codecs
import Foundation

// The on-disk form, version 1:
//
//   {
//     "version": 1,
//     "address": "0x<40 hex>",
//     "kdf": {"name": "scrypt", "n": 32768, "r": 8, "p": 1, "salt": "<hex>"},
//     "cipher": {"name": "chacha20-poly1305", "nonce": "<24 hex>", "ciphertext": "<96 hex>"}
//   }
//
// `ciphertext` is the sealed key followed by the Poly1305 tag; the associated data is the ASCII
// of `address` in lowercase. Unknown fields are ignored, so later versions can add some.
// Parsing goes version, then algorithm names, then the rest, so a future file says
// "unsupported version" rather than "field missing".

extension KeyFile {
    /// Parses a key file, naming the field at fault when it is malformed.
    public init(json: Data) throws(KeystoreError) {
        let version = try Self.decode(VersionField.self, from: json).version
        guard version == Self.currentVersion else {
            throw KeystoreError(
                .unsupportedVersion,
                "key file version \(version) is not supported (this build reads version "
                    + "\(Self.currentVersion))")
        }
        let names = try Self.decode(AlgorithmNames.self, from: json)
        guard names.kdf.name == Self.kdfName else {
            throw KeystoreError(
                .unsupportedKDF, "key file KDF \"\(names.kdf.name)\" is not supported (scrypt is)")
        }
        guard names.cipher.name == Self.cipherName else {
            throw KeystoreError(
                .unsupportedCipher,
                "key file cipher \"\(names.cipher.name)\" is not supported (\(Self.cipherName) is)")
        }
        let document = try Self.decode(Document.self, from: json)
        let address = try Self.address(document.address)
        let cost = try ScryptCost(n: document.kdf.n, r: document.kdf.r, p: document.kdf.p)
        let salt = try Self.hex(document.kdf.salt, field: "kdf.salt", lengths: 16...64)
        let nonce = try Self.hex(
            document.cipher.nonce, field: "cipher.nonce",
            lengths: Self.nonceByteCount...Self.nonceByteCount)
        let ciphertext = try Self.hex(
            document.cipher.ciphertext, field: "cipher.ciphertext",
            lengths: Self.sealedByteCount...Self.sealedByteCount)
        self.init(address: address, cost: cost, salt: salt, nonce: nonce, ciphertext: ciphertext)
    }

    /// The file's bytes: the layout above, fields in a fixed order, ending with a newline.
    public func json() -> Data {
        // Written by hand for a stable, readable field order; every value is a number, a fixed
        // name or hex, so nothing needs escaping.
        let text = """
            {
              "version": \(Self.currentVersion),
              "address": "\(address)",
              "kdf": {
                "name": "\(Self.kdfName)",
                "n": \(cost.n),
                "r": \(cost.r),
                "p": \(cost.p),
                "salt": "\(Hex.encode(salt, prefix: false))"
              },
              "cipher": {
                "name": "\(Self.cipherName)",
                "nonce": "\(Hex.encode(nonce, prefix: false))",
                "ciphertext": "\(Hex.encode(ciphertext, prefix: false))"
              }
            }

            """
        return Data(text.utf8)
    }

    private struct VersionField: Decodable {
        let version: Int
    }

    private struct AlgorithmNames: Decodable {
        struct Named: Decodable {
            let name: String
        }
        let kdf: Named
        let cipher: Named
    }

    private struct Document: Decodable {
        struct KDF: Decodable {
            let n: Int
            let r: Int
            let p: Int
            let salt: String
        }
        struct Cipher: Decodable {
            let nonce: String
            let ciphertext: String
        }
        let address: String
        let kdf: KDF
        let cipher: Cipher
    }

    /// JSONDecoder, with its errors turned into `.malformed` naming the dotted field path.
    private static func decode<T: Decodable>(
        _ type: T.Type, from json: Data
    ) throws(KeystoreError) -> T {
        do {
            return try JSONDecoder().decode(type, from: json)
        } catch let error as DecodingError {
            throw malformed(error)
        } catch {
            throw .malformed(nil, "could not be decoded (\(error))")
        }
    }

    private static func malformed(_ error: DecodingError) -> KeystoreError {
        func path(_ keys: [any CodingKey]) -> String? {
            keys.isEmpty ? nil : keys.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .malformed(path(context.codingPath + [key]), "is missing")
        case .valueNotFound(_, let context):
            return .malformed(path(context.codingPath), "is null")
        case .typeMismatch(let type, let context):
            return .malformed(path(context.codingPath), "is not a \(jsonTypeName(type))")
        case .dataCorrupted(let context):
            guard let field = path(context.codingPath) else {
                return .malformed(nil, "is not valid JSON")
            }
            return .malformed(field, "has an invalid value")
        @unknown default:
            return .malformed(nil, "could not be decoded")
        }
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        if type == Int.self { return "whole number" }
        if type == String.self { return "string" }
        return "JSON object"
    }

    private static func address(_ text: String) throws(KeystoreError) -> String {
        let lowercase = text.lowercased()
        guard lowercase.hasPrefix("0x"), lowercase.utf8.count == 42,
            (try? Hex.decode(lowercase)) != nil
        else {
            throw .malformed("address", "is not \"0x\" followed by 40 hex digits")
        }
        return lowercase
    }

    private static func hex(
        _ text: String, field: String, lengths: ClosedRange<Int>
    ) throws(KeystoreError) -> [UInt8] {
        guard let bytes = try? Hex.decode(text) else {
            throw .malformed(field, "is not hex")
        }
        guard lengths.contains(bytes.count) else {
            let expected =
                lengths.count == 1
                ? "\(lengths.lowerBound)" : "\(lengths.lowerBound) to \(lengths.upperBound)"
            throw .malformed(field, "must be \(expected) bytes, got \(bytes.count)")
        }
        return bytes
    }
}
