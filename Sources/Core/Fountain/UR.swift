import Codecs

/// A Uniform Resource (BCR-2020-005): a type and a CBOR body.
///
/// Single-part text is `ur:<type>/<minimal bytewords of the CBOR>`; multipart text is
/// `ur:<type>/<seqNum>-<seqLen>/<minimal bytewords of the part's CBOR>` (see `UREncoder`).
/// The type is lower-case letters, digits and hyphens. The CBOR body is carried as opaque
/// bytes: it is not parsed here.
public struct UR: Hashable, Sendable {
    public let type: String
    public let cbor: [UInt8]

    public init(type: String, cbor: [UInt8]) throws(FountainError) {
        guard Self.isValidType(type) else {
            throw FountainError(
                .invalidUR, "UR type must be lower-case letters, digits and hyphens")
        }
        guard !cbor.isEmpty else {
            throw FountainError(.invalidArgument, "UR with an empty CBOR body")
        }
        self.type = type
        self.cbor = cbor
    }

    /// Non-empty, and only `a-z`, `0-9` and `-`.
    public static func isValidType(_ type: String) -> Bool {
        !type.isEmpty && type.utf8.allSatisfy(isTypeByte)
    }

    static func isTypeByte(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D
    }

    /// The single-part text, lower case (upper-case it for a QR code in alphanumeric mode).
    public var string: String {
        "ur:\(type)/" + Bytewords.encode(cbor, style: .minimal)
    }

    /// Parses single-part UR text (any letter case).
    public init(parsing text: String, limits: FountainLimits = .standard) throws(FountainError) {
        let parsed = try URText(text)
        guard parsed.sequence == nil else {
            throw FountainError(.invalidUR, "a multipart UR part, not a single-part UR")
        }
        try self.init(type: parsed.type, cbor: parsed.decodeBody(maxBytes: limits.maxMessageLength))
    }
}

/// The components of UR text: type (lower-cased), optional `seqNum-seqLen`, body (as written:
/// Bytewords ignore letter case).
///
/// Read byte by byte, folding ASCII letters only, and without copying the body: text far
/// over the limits costs no memory before `decodeBody` refuses it.
struct URText {
    var type: String
    var sequence: (seqNum: UInt32, seqLen: UInt64)?
    var body: Substring

    init(_ text: String) throws(FountainError) {
        let utf8 = text.utf8
        guard utf8.starts(with: "ur:".utf8, by: { Self.asciiLower($0) == $1 }) else {
            throw FountainError(.invalidUR, "UR text must start with \"ur:\"")
        }
        // maxSplits: a fourth component is refused without splitting the rest into pieces.
        let components = utf8.dropFirst(3).split(
            separator: UInt8(ascii: "/"), maxSplits: 3, omittingEmptySubsequences: false)
        guard components.count == 2 || components.count == 3, components.allSatisfy({ !$0.isEmpty })
        else {
            throw FountainError(
                .invalidUR, "UR text must be ur:type/body or ur:type/seqNum-seqLen/body")
        }
        let lowerType = components[0].lazy.map(Self.asciiLower)
        guard lowerType.allSatisfy(UR.isTypeByte) else {
            throw FountainError(
                .invalidUR, "UR type must be lower-case letters, digits and hyphens")
        }
        type = String(decoding: lowerType, as: UTF8.self)
        body = Substring(components[components.count - 1])
        if components.count == 3 {
            let numbers = components[1].split(
                separator: UInt8(ascii: "-"), maxSplits: 2, omittingEmptySubsequences: false)
            guard numbers.count == 2,
                numbers.allSatisfy({
                    !$0.isEmpty && $0.allSatisfy { (0x30...0x39).contains($0) }
                }),
                let seqNum = UInt32(Substring(numbers[0])),
                let seqLen = UInt64(Substring(numbers[1])), seqNum >= 1, seqLen >= 1
            else {
                throw FountainError(
                    .invalidSequence, "sequence component must be seqNum-seqLen, both from 1")
            }
            sequence = (seqNum, seqLen)
        }
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// The Bytewords body decoded, refusing (before decoding) one longer than `maxBytes`.
    func decodeBody(maxBytes: Int) throws(FountainError) -> [UInt8] {
        let declared = body.utf8.count / 2 - 4
        guard declared <= maxBytes else {
            throw FountainError(
                .messageTooLarge,
                "UR body of \(declared) bytes exceeds the limit of \(maxBytes) bytes")
        }
        return try Bytewords.decode(body, style: .minimal)
    }
}

extension FountainPart {
    /// BC-UR's part CBOR: `[seqNum, seqLen, messageLen, checksum, data]`.
    var cbor: [UInt8] {
        CBOR.array([
            .unsigned(UInt64(seqNum)), .unsigned(UInt64(seqLen)), .unsigned(UInt64(messageLength)),
            .unsigned(UInt64(checksum)), .bytes(data),
        ]).encoded()
    }

    /// Parses and checks a part's CBOR (any well-formed encoding) against `limits`.
    static func decode(
        cbor bytes: [UInt8], limits: FountainLimits
    ) throws(FountainError) -> (
        seqNum: UInt32, shape: FountainDecoder.Shape, data: [UInt8]
    ) {
        let options = CBORDecodingOptions(
            requireDeterministic: false, maxInputBytes: max(bytes.count, 1),
            maxDepth: 1, maxCollectionCount: 5, maxStringBytes: max(bytes.count, 1))
        let item: CBOR
        do {
            item = try CBOR.decode(bytes, options: options)
        } catch {
            throw FountainError(.invalidPart, "part is not well-formed CBOR (\(error))")
        }
        guard let fields = item.arrayValue, fields.count == 5,
            let seqNum = fields[0].unsignedValue, let seqLen = fields[1].unsignedValue,
            let messageLength = fields[2].unsignedValue, let checksum = fields[3].unsignedValue,
            let data = fields[4].bytesValue
        else {
            throw FountainError(
                .invalidPart, "part CBOR must be [seqNum, seqLen, messageLen, checksum, data]")
        }
        guard seqNum <= UInt64(UInt32.max), checksum <= UInt64(UInt32.max) else {
            throw FountainError(.invalidPart, "part seqNum or checksum exceeds 32 bits")
        }
        let shape = try FountainDecoder.shape(
            seqNum: UInt32(seqNum), seqLen: seqLen, messageLength: messageLength,
            checksum: UInt32(checksum), fragmentLength: data.count, limits: limits)
        return (UInt32(seqNum), shape, data)
    }
}
