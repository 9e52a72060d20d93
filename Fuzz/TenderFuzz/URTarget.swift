import Codecs
import Fountain

/// BC-UR text: single parts, multipart sequences fed to one `URDecoder`, and Bytewords.
///
/// Byte 0 picks the mode. Bit 0 set: a UR whose body is the input is encoded with
/// `UREncoder`, then its parts are dropped, repeated, reordered or upper-cased as the input
/// says (all harmless: the UR must come out whole). Clear: the rest is length-prefixed
/// pieces, fed as text; with bit 1 set each piece is a part's CBOR instead, wrapped in
/// `ur:bytes/seqNum-seqLen/` and valid Bytewords, so mutations get past the Bytewords CRC.
enum URTarget {
    static let ur = FuzzTarget(
        name: "ur",
        summary: "URDecoder, UR(parsing:), Bytewords over raw and encoder-made parts; round trips",
        run: checkUR, oversizeCheck: urOversize)

    static func checkUR(_ bytes: [UInt8]) {
        var reader = ByteReader(bytes[...])
        let mode = reader.byte()
        if mode & 1 == 1 {
            encodedParts(&reader)
            return
        }
        var decoder = URDecoder()
        for piece in reader.lengthPrefixedPieces() {
            let text = mode & 2 != 0 ? wrapAsPart(piece) : String(decoding: piece, as: UTF8.self)
            checkSinglePart(text)
            checkBytewords(text)
            _ = receive(text, into: &decoder)
        }
    }

    private static func encodedParts(_ reader: inout ByteReader) {
        let requestedLength = Int(reader.byte()) + 1
        let extraParts = Int(reader.byte() % 16)
        let edits = (0..<Int(reader.byte() % 8)).map { _ in PartEdit(&reader) }
        let body = Array(reader.rest.prefix(512))
        // At most about 32 fragments, as for frames.
        let maxFragmentLength = max(requestedLength, (body.count + 31) / 32)
        guard let ur = try? UR(type: "bytes", cbor: body) else { return }
        var encoder = UREncoder(
            ur: ur, maxFragmentLength: maxFragmentLength,
            minFragmentLength: min(10, maxFragmentLength))
        var parts = (0..<(encoder.seqLen + extraParts)).map { _ in encoder.nextPart() }
        let dropsNone = !edits.contains { $0.operation == .drop }
        PartEdit.apply(edits, to: &parts) { part, _ in part = part.uppercased() }
        var decoder = URDecoder()
        for part in parts {
            require(receive(part, into: &decoder), "a part of the encoder was refused")
        }
        if dropsNone { require(decoder.result == ur, "every part was given but no UR came out") }
        if let result = decoder.result { require(result == ur, "decoded another UR") }
    }

    /// Feeds one part and checks what `URDecoder` promises: a refused part leaves the decoder
    /// as it was (a failed message checksum resets it). True when the part was accepted.
    private static func receive(_ text: String, into decoder: inout URDecoder) -> Bool {
        let before = decoder.progress
        do throws(FountainError) {
            let progress = try decoder.receive(text)
            require(progress == decoder.progress, "returned progress is not the decoder's")
            require((0...1).contains(progress.fraction), "fraction \(progress.fraction)")
            require(
                progress.usefulPartCount <= progress.expectedPartCount ?? 0,
                "more useful parts than fragments")
            if let ur = progress.complete {
                require(progress.fraction == 1, "complete at fraction \(progress.fraction)")
                require(UR.isValidType(ur.type) && !ur.cbor.isEmpty, "complete UR is invalid")
            }
            return true
        } catch {
            if error.kind == .messageChecksumMismatch {
                require(decoder.progress.usefulPartCount == 0, "checksum mismatch kept parts")
            } else {
                require(decoder.progress == before, "refused part (\(error)) changed the decoder")
            }
            return false
        }
    }

    /// An accepted single-part UR is ASCII and survives writing and reading back.
    private static func checkSinglePart(_ text: String) {
        guard let ur = try? UR(parsing: text) else { return }
        require(text.utf8.allSatisfy { $0 < 0x80 }, "UR text with non-ASCII accepted")
        require((try? UR(parsing: ur.string)) == ur, "UR does not survive its own text")
    }

    /// Decoded Bytewords encode back to the same text, lower-cased.
    private static func checkBytewords(_ text: String) {
        for style in Bytewords.Style.allCases {
            guard let data = try? Bytewords.decode(text, style: style) else { continue }
            require(
                Bytewords.encode(data, style: style).utf8.elementsEqual(
                    text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }),
                "\(style) Bytewords decode but do not encode back to their text")
        }
    }

    /// `piece` as the CBOR of a multipart part, in text whose sequence numbers agree with it
    /// where the CBOR is readable.
    private static func wrapAsPart(_ piece: [UInt8]) -> String {
        var sequence = "1-1"
        if let fields = (try? CBOR.decode(piece, options: .lenient))?.arrayValue, fields.count >= 2,
            let seqNum = fields[0].unsignedValue, let seqLen = fields[1].unsignedValue
        {
            sequence = "\(seqNum)-\(seqLen)"
        }
        return "ur:bytes/\(sequence)/" + Bytewords.encode(piece, style: .minimal)
    }

    /// UR text whose body is over the 1 MiB limit.
    static func urOversize() {
        let cap = FountainLimits.standard.maxMessageLength
        let body = Bytewords.encode([UInt8](repeating: 0, count: 4 * cap), style: .minimal)
        let text = "ur:bytes/" + body
        let multipart = "ur:bytes/1-1/" + body
        AllocationMeter.requireAtMost(cap, "UR text of \(text.utf8.count) characters") {
            do throws(FountainError) {
                _ = try UR(parsing: text)
                require(false, "a UR over the limit was accepted")
            } catch {
                require(error.kind == .messageTooLarge, "oversized UR refused with \(error)")
            }
            var decoder = URDecoder()
            do throws(FountainError) {
                _ = try decoder.receive(multipart)
                require(false, "a UR part over the limit was accepted")
            } catch {
                require(error.kind == .messageTooLarge, "oversized UR part refused with \(error)")
            }
        }
    }
}
