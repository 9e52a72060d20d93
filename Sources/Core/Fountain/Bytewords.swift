/// Bytewords (BCR-2020-012): each byte as one of 256 four-letter words, with the CRC32 of the
/// data appended (big-endian) before encoding.
///
/// Styles: `standard` ("able acid also"), `uri` ("able-acid-also") and `minimal` (first and
/// last letter of each word, "aeadao"), which is what URs use. Words are unique by their first
/// and last letters, so minimal text decodes unambiguously. Decoding ignores letter case, so
/// upper-case text (for QR alphanumeric mode) decodes too.
public enum Bytewords {
    public enum Style: Sendable, CaseIterable {
        case standard
        case uri
        case minimal
    }

    /// The 256 words, in byte order (BCR-2020-012).
    private static let words: [[UInt8]] = {
        let all =
            "ableacidalsoapexaquaarchatomauntawayaxisbackbaldbarnbeltbetabiasbluebodybragbrewbulbbuzz"
            + "calmcashcatschefcityclawcodecolacookcostcruxcurlcuspcyandarkdatadaysdelidicedietdoordown"
            + "drawdropdrumdulldutyeacheasyechoedgeepicevenexamexiteyesfactfairfernfigsfilmfishfizzflap"
            + "flewfluxfoxyfreefrogfuelfundgalagamegeargemsgiftgirlglowgoodgraygrimgurugushgyrohalfhang"
            + "hardhawkheathelphighhillholyhopehornhutsicedideaidleinchinkyintoirisironitemjadejazzjoin"
            + "joltjowljudojugsjumpjunkjurykeepkenokeptkeyskickkilnkingkitekiwiknoblamblavalazyleaflegs"
            + "liarlimplionlistlogoloudloveluaulucklungmainmanymathmazememomenumeowmildmintmissmonknail"
            + "navyneednewsnextnoonnotenumbobeyoboeomitonyxopenovalowlspaidpartpeckplaypluspoempoolpose"
            + "puffpumapurrquadquizraceramprealredorichroadrockroofrubyruinrunsrustsafesagascarsetssilk"
            + "skewslotsoapsolosongstubsurfswantacotasktaxitenttiedtimetinytoiltombtoystriptunatwinugly"
            + "undouniturgeuservastveryvetovialvibeviewvisavoidvowswallwandwarmwaspwavewaxywebswhatwhen"
            + "whizwolfworkyankyawnyellyogayurtzapszerozestzinczonezoom"
        let bytes = Array(all.utf8)
        precondition(bytes.count == 1024)
        return (0..<256).map { Array(bytes[($0 * 4)..<($0 * 4 + 4)]) }
    }()

    /// Byte value by (first letter, last letter), -1 where no word has that pair.
    private static let lookup: [Int16] = {
        var table = [Int16](repeating: -1, count: 26 * 26)
        for (value, word) in words.enumerated() {
            table[Int(word[0] - 0x61) * 26 + Int(word[3] - 0x61)] = Int16(value)
        }
        return table
    }()

    public static func encode(_ bytes: some Collection<UInt8>, style: Style) -> String {
        var data = Array(bytes)
        data.append(contentsOf: BigEndian.bytes(CRC32.checksum(data)))
        var text: [UInt8] = []
        text.reserveCapacity(data.count * (style == .minimal ? 2 : 5))
        for (position, byte) in data.enumerated() {
            let word = words[Int(byte)]
            switch style {
            case .minimal:
                text.append(word[0])
                text.append(word[3])
            case .standard, .uri:
                if position > 0 { text.append(style == .uri ? 0x2D : 0x20) }
                text.append(contentsOf: word)
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The data, after checking every word and the trailing CRC32.
    public static func decode(
        _ text: some StringProtocol, style: Style
    ) throws(FountainError)
        -> [UInt8]
    {
        let letters = Array(text.utf8)
        var data: [UInt8] = []
        switch style {
        case .minimal:
            guard letters.count % 2 == 0 else {
                throw FountainError(
                    .invalidBytewords, "minimal Bytewords of odd length \(letters.count)")
            }
            data.reserveCapacity(letters.count / 2)
            for start in stride(from: 0, to: letters.count, by: 2) {
                data.append(try value(of: letters[start..<(start + 2)], length: 2, at: start / 2))
            }
        case .standard, .uri:
            let separator: UInt8 = style == .uri ? 0x2D : 0x20
            let pieces = letters.split(separator: separator, omittingEmptySubsequences: false)
            data.reserveCapacity(pieces.count)
            for (position, word) in pieces.enumerated() {
                data.append(try value(of: word, length: 4, at: position))
            }
        }
        guard data.count >= 5 else {
            throw FountainError(
                .truncated,
                "Bytewords hold \(data.count) bytes, fewer than data and a 4-byte checksum")
        }
        let body = Array(data[..<(data.count - 4)])
        let expected = BigEndian.uint32(data, at: data.count - 4)
        guard CRC32.checksum(body) == expected else {
            throw FountainError(.checksumMismatch, "Bytewords checksum does not match their data")
        }
        return body
    }

    /// One word (4 letters) or minimal pair (2 letters), any case.
    private static func value(
        of word: ArraySlice<UInt8>, length: Int, at position: Int
    )
        throws(FountainError) -> UInt8
    {
        let letters = word.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        guard letters.count == length,
            let first = letters.first, let last = letters.last,
            (0x61...0x7A).contains(first), (0x61...0x7A).contains(last)
        else {
            throw FountainError(.invalidBytewords, "word \(position) is not a Byteword")
        }
        let value = lookup[Int(first - 0x61) * 26 + Int(last - 0x61)]
        guard value >= 0, letters.count == 2 || words[Int(value)] == letters else {
            throw FountainError(.invalidBytewords, "word \(position) is not a Byteword")
        }
        return UInt8(value)
    }
}
