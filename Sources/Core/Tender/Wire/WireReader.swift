import Codecs
import Secp256k1

/// Reads a decoded CBOR tree into protocol values, naming the path of whatever is wrong
/// (`payment.bundle.transfers[2].outputs[0].amount: expected an unsigned integer`).
struct WireReader {
    let value: CBOR
    let path: String

    init(_ value: CBOR, path: String) {
        self.value = value
        self.path = path
    }

    /// Decodes `bytes` as deterministic CBOR and reads the root with `build`; CBOR errors become
    /// `.malformed` naming `path`.
    static func decodeRoot<T>(
        _ bytes: [UInt8], path: String, _ build: (WireReader) throws(ProtocolError) -> T
    ) throws(ProtocolError) -> T {
        let tree: CBOR
        do { tree = try CBOR.decode(bytes, options: .deterministic) } catch {
            throw ProtocolError(.malformed("\(path) is not deterministic CBOR: \(error)"))
        }
        return try build(WireReader(tree, path: path))
    }

    func fail(_ what: String) -> ProtocolError { ProtocolError(.malformed("\(path): \(what)")) }

    /// A map with exactly these integer keys: unknown keys mean a newer protocol version.
    func fields(
        required: Set<UInt64>, optional: Set<UInt64> = []
    ) throws(ProtocolError) -> [UInt64: CBOR] {
        guard let entries = value.mapEntries else { throw fail("expected a map") }
        var result: [UInt64: CBOR] = [:]
        for entry in entries {
            guard let key = entry.key.unsignedValue else {
                throw fail("map keys must be unsigned integers")
            }
            guard required.contains(key) || optional.contains(key) else {
                throw fail("unknown field \(key)")
            }
            result[key] = entry.value
        }
        for key in required.sorted() where result[key] == nil { throw fail("missing field \(key)") }
        return result
    }

    func field(_ fields: [UInt64: CBOR], _ key: UInt64, _ name: String) -> WireReader {
        WireReader(fields[key] ?? .null, path: "\(path).\(name)")
    }

    func unsigned() throws(ProtocolError) -> UInt64 {
        guard let number = value.unsignedValue else { throw fail("expected an unsigned integer") }
        return number
    }

    func bytes(count: Int? = nil) throws(ProtocolError) -> [UInt8] {
        guard let bytes = value.bytesValue else { throw fail("expected a byte string") }
        if let count, bytes.count != count {
            throw fail("expected \(count) bytes, got \(bytes.count)")
        }
        return bytes
    }

    func text(maxBytes: Int) throws(ProtocolError) -> String {
        guard let text = value.textValue else { throw fail("expected a text string") }
        guard text.utf8.count <= maxBytes else { throw fail("longer than \(maxBytes) bytes") }
        return text
    }

    func array(max: Int) throws(ProtocolError) -> [WireReader] {
        guard let items = value.arrayValue else { throw fail("expected an array") }
        guard items.count <= max else { throw fail("more than \(max) items") }
        return items.enumerated().map { WireReader($1, path: "\(path)[\($0)]") }
    }

    func bytes32() throws(ProtocolError) -> Bytes32 { Bytes32(trusted: try bytes(count: 32)) }

    func address() throws(ProtocolError) -> Address { Address(unchecked: try bytes(count: 20)) }

    /// A 65-byte signature as Tender writes it: `v` is 27 or 28 (0 and 1, which mean the
    /// same, are refused so that one signature has one encoding).
    func signature() throws(ProtocolError) -> RecoverableSignature {
        let bytes = try bytes(count: 65)
        guard bytes[64] == 27 || bytes[64] == 28 else { throw fail("v must be 27 or 28") }
        do throws(Secp256k1Error) { return try RecoverableSignature(bytes: bytes) } catch {
            throw fail("\(error)")
        }
    }

    /// An amount: an unsigned integer, or a tag-2 bignum only when it exceeds 2^64 - 1
    /// (preferred serialisation, RFC 8949 §3.4.3), at most 16 bytes, no leading zero.
    func amount() throws(ProtocolError) -> Amount {
        if let small = value.unsignedValue { return Amount(small) }
        guard case .tagged(2, let inner) = value, let digits = inner.bytesValue else {
            throw fail("expected an unsigned integer or a tag-2 bignum")
        }
        guard digits.count > 8, digits.count <= 16, digits.first != 0,
            let amount = Amount(bigEndian: digits)
        else { throw fail("bignum is not in preferred form or exceeds 2^128 - 1") }
        return amount
    }
}

extension Amount {
    var cbor: CBOR {
        if let small = UInt64(exactly: self) { return .unsigned(small) }
        return .tagged(2, .bytes(minimalBigEndian))
    }
}

extension CBOR {
    /// A map with small unsigned keys, the shape of every Tender structure.
    static func fields(_ pairs: KeyValuePairs<UInt64, CBOR>) -> CBOR {
        .map(pairs.map { CBOR.Entry(.unsigned($0.key), $0.value) })
    }

    static func fields(_ pairs: [(UInt64, CBOR)]) -> CBOR {
        .map(pairs.map { CBOR.Entry(.unsigned($0.0), $0.1) })
    }
}
