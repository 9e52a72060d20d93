import Foundation
import PaymentCodes
import TenderTestSupport
import Testing

/// Tender's readings of payment codes against independent implementations
/// (Referee/payment_codes_referee.py): the `bolt11` package (lnbits) writes and reads invoices,
/// NUT-00 tokens are written and read with `json` and `cbor2`, BIP21 URIs with `urllib`'s
/// percent-encoding and EIP-681 URLs with `eth-utils`' EIP-55 addresses. Everything goes
/// through the public `ScannedCode.recognize`, as a scanned code would.
@Suite(
    .enabled(
        if: PaymentCodesReferee.shouldRun, "needs the referee venv (bash Scripts/setup.sh)")
)
struct PaymentCodesRefereeTests {
    static let seeds = [1, 2, 3]

    // MARK: BOLT11

    @Test(arguments: seeds)
    func invoicesWrittenByBolt11(seed: Int) throws {
        let cases = try PaymentCodesReferee.objects(["bolt11-generate", "\(seed)", "150"])
        #expect(cases.count == 150)
        for expected in cases {
            let text = try #require(expected["invoice"] as? String)
            guard case .bolt11(let ours) = ScannedCode.recognize(text) else {
                Issue.record(
                    "not read as BOLT11: \(ScannedCode.recognize(text).explanation) \(text)")
                continue
            }
            var theirs = PaymentCodesReferee.strings(expected, Self.invoiceFields)
            theirs["payee"] = PaymentCodesReferee.string(expected["payee"])
            #expect(Self.fields(of: ours, payee: true) == theirs, "\(text)")
            #expect(ours.otherFields == expected["other_fields"] as? [String], "\(text)")
            // The same invoice upper-cased, behind `lightning:`, or with a newline after it.
            for variant in [
                text.uppercased(), "lightning:" + text, "LIGHTNING:" + text.uppercased(),
                text + "\n",
            ] {
                #expect(ScannedCode.recognize(variant) == .bolt11(ours), "\(variant)")
            }
        }
    }

    @Test func specExamplesReadAlike() throws {
        let texts = BOLT11Vectors.valid.map(\.invoice)
        let theirs = try PaymentCodesReferee.decode("bolt11-decode", texts)
        for ((title, text), reading) in zip(BOLT11Vectors.valid, theirs) {
            guard reading["error"] == nil else {
                Issue.record("bolt11 refuses the spec example \"\(title)\": \(reading["error"]!)")
                continue
            }
            guard case .bolt11(let ours) = ScannedCode.recognize(text) else {
                Issue.record("not read as BOLT11: \(title)")
                continue
            }
            // bolt11 recovers the payee from the signature; Tender only shows an `n` field.
            let withPayee = ours.payeeNodeID != nil
            var expected = PaymentCodesReferee.strings(reading, Self.invoiceFields)
            if withPayee { expected["payee"] = PaymentCodesReferee.string(reading["payee"]) }
            #expect(Self.fields(of: ours, payee: withPayee) == expected, "\(title)")
        }
    }

    /// One character of the data part replaced by another bech32 character: the checksum
    /// always catches a single substitution, so both must refuse.
    @Test func damagedInvoicesAreRefusedByBoth() throws {
        let cases = try PaymentCodesReferee.objects(["bolt11-generate", "7", "20"])
        let charset = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l")
        var damaged: [String] = []
        for (index, expected) in cases.enumerated() {
            let text = Array(try #require(expected["invoice"] as? String))
            let separator = try #require(text.lastIndex(of: "1"))
            for step in 0..<5 {
                var copy = text
                let position =
                    separator + 1 + (index * 37 + step * 101) % (text.count - separator - 1)
                let old = try #require(charset.firstIndex(of: copy[position]))
                copy[position] = charset[(old + 1 + (index + step) % 31) % 32]
                damaged.append(String(copy))
            }
            // Mixed case is refused by BIP-173, but bolt11 lower-cases before it checks, so
            // only Tender is asked to refuse it (as the spec's own mixed-case example below).
            let mixed = String(text.prefix(10)).uppercased() + String(text.dropFirst(10))
            #expect(ScannedCode.recognize(mixed).problem?.field == "bech32", "\(mixed)")
        }
        #expect(
            ScannedCode.recognize(BOLT11Vectors.invalid[3].invoice).problem?.field == "bech32")
        // The spec's bad checksum, no '1' (not even an invoice prefix), too short, multiplier 'x'.
        damaged += [1, 2, 5, 6].map { BOLT11Vectors.invalid[$0].invoice }
        let theirs = try PaymentCodesReferee.decode("bolt11-decode", damaged)
        for (text, reading) in zip(damaged, theirs) {
            #expect(reading["error"] != nil, "bolt11 reads a damaged invoice: \(text)")
            let ours = ScannedCode.recognize(text)
            guard case .unknown = ours else {
                Issue.record("Tender reads a damaged invoice: \(text)")
                continue
            }
            // Text with an invoice prefix is explained as a damaged invoice.
            #expect(ours.problem != nil || !text.hasPrefix("ln"), "\(text)")
        }
    }

    static let invoiceFields = [
        "network", "msat", "timestamp", "payment_hash", "payment_secret", "description",
        "description_hash", "expiry", "cltv", "features", "signature",
    ]

    static func fields(of code: BOLT11, payee: Bool) -> [String: String] {
        func text(_ value: (some CustomStringConvertible)?) -> String {
            value.map(\.description) ?? "nil"
        }
        var fields: [String: String] = [:]
        fields["network"] = code.network.rawValue
        fields["msat"] = text(code.millisatoshis)
        fields["timestamp"] = text(code.timestamp)
        fields["payment_hash"] = hex(code.paymentHash)
        fields["payment_secret"] = text(code.paymentSecret.map(hex))
        fields["description"] = text(code.invoiceDescription)
        fields["description_hash"] = text(code.descriptionHash.map(hex))
        fields["expiry"] = text(code.expiry)
        fields["cltv"] = text(code.minFinalCLTVExpiryDelta)
        fields["features"] = "[" + code.features.map(String.init).joined(separator: ",") + "]"
        fields["signature"] = hex(code.signature)
        if payee { fields["payee"] = text(code.payeeNodeID.map(hex)) }
        return fields
    }

    // MARK: BIP21 and EIP-681

    @Test(arguments: seeds)
    func bitcoinURIsWrittenWithURLLib(seed: Int) throws {
        let cases = try PaymentCodesReferee.objects(["bip21-generate", "\(seed)", "150"])
        #expect(cases.count == 150)
        for expected in cases {
            let text = try #require(expected["uri"] as? String)
            guard case .bip21(let ours) = ScannedCode.recognize(text) else {
                Issue.record(
                    "not read as BIP21: \(ScannedCode.recognize(text).explanation) \(text)")
                continue
            }
            #expect(
                Self.fields(of: ours) == PaymentCodesReferee.strings(expected, Self.bip21Fields),
                "\(text)")
        }
    }

    /// One character of each address replaced by another of its alphabet (after the first
    /// two, so the kind of address stays): the referee and Tender must both refuse it, and
    /// Tender must name the address.
    @Test func damagedAddressesAreRefusedByBoth() throws {
        let cases = try PaymentCodesReferee.objects(["bip21-generate", "9", "60"])
        let bech32 = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l")
        let base58 = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
        var damaged: [String] = []
        for (index, expected) in cases.enumerated() {
            let address = Array(try #require(expected["address"] as? String))
            guard !address.isEmpty else { continue }
            let upper = address.allSatisfy { !$0.isLowercase }
            let segwit = ["bc1", "tb1", "bcrt1"].contains {
                String(address).lowercased().hasPrefix($0)
            }
            var copy = address.map { upper && segwit ? Character($0.lowercased()) : $0 }
            let start = segwit ? try #require(copy.lastIndex(of: "1")) + 1 : 2
            let position = start + (index * 7) % (copy.count - start)
            let alphabet = segwit ? bech32 : base58
            let old = try #require(alphabet.firstIndex(of: copy[position]), "\(address)")
            copy[position] = alphabet[(old + 1 + index % (alphabet.count - 1)) % alphabet.count]
            damaged.append(String(copy))
        }
        #expect(damaged.count > 40)
        let theirs = try PaymentCodesReferee.decode("address-decode", damaged)
        for (address, reading) in zip(damaged, theirs) {
            #expect(reading["error"] != nil, "the referee reads a damaged address: \(address)")
            let uri = "bitcoin:\(address)?amount=0.001"
            let ours = ScannedCode.recognize(uri)
            #expect(ours == .unknown(uri), "Tender reads a damaged address: \(address)")
            #expect(
                ours.problem?.field == "address", "\(address): \(String(describing: ours.problem))")
            if address.hasPrefix("bc1") || address.hasPrefix("tb1") || address.hasPrefix("bcrt1") {
                #expect(ours.problem?.kind == .badChecksum, "\(address)")
            }
        }
    }

    static let bip21Fields = [
        "address", "network", "satoshis", "label", "message", "lightning", "required", "others",
    ]

    static func fields(of code: BIP21) -> [String: String] {
        [
            "address": code.address,
            "network": code.bitcoinAddress?.network.rawValue ?? "nil",
            "satoshis": code.satoshis.map(String.init) ?? "nil",
            "label": code.label ?? "nil",
            "message": code.message ?? "nil",
            "lightning": code.lightning ?? "nil",
            "required": "[" + code.requiredUnknown.joined(separator: ",") + "]",
            "others": "["
                + code.otherParameters.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
                + "]",
        ]
    }

    @Test(arguments: seeds)
    func ethereumURLsWrittenWithEthUtils(seed: Int) throws {
        let cases = try PaymentCodesReferee.objects(["eip681-generate", "\(seed)", "150"])
        #expect(cases.count == 150)
        for expected in cases {
            let text = try #require(expected["url"] as? String)
            guard case .eip681(let ours) = ScannedCode.recognize(text) else {
                Issue.record(
                    "not read as EIP-681: \(ScannedCode.recognize(text).explanation) \(text)")
                continue
            }
            #expect(
                Self.fields(of: ours) == PaymentCodesReferee.strings(expected, Self.eip681Fields),
                "\(text)")
        }
    }

    static let eip681Fields = [
        "pay", "target", "chain_id", "function", "value", "intent", "to", "amount",
        "checksum_failures",
    ]

    static func fields(of code: EIP681) -> [String: String] {
        func text(_ value: (some CustomStringConvertible)?) -> String {
            value.map(\.description) ?? "nil"
        }
        var fields: [String: String] = [:]
        fields["pay"] = code.hasPayPrefix ? "true" : "false"
        fields["target"] = code.target.description
        fields["chain_id"] = text(code.chainID)
        fields["function"] = text(code.functionName)
        fields["value"] = text(code.value)
        switch code.intent {
        case .native(let to, let amount):
            (fields["intent"], fields["to"], fields["amount"]) = (
                "native", to.description, text(amount)
            )
        case .tokenTransfer(_, let to, let amount):
            (fields["intent"], fields["to"], fields["amount"]) = (
                "transfer", text(to), text(amount)
            )
        case .contractCall:
            (fields["intent"], fields["to"], fields["amount"]) = ("call", "nil", "nil")
        }
        fields["checksum_failures"] = "[" + code.checksumFailures.joined(separator: ",") + "]"
        return fields
    }

    // MARK: Cashu

    @Test(arguments: seeds)
    func tokensWrittenWithJSONAndCBOR2(seed: Int) throws {
        let cases = try PaymentCodesReferee.objects(["cashu-generate", "\(seed)", "150"])
        #expect(cases.count == 150)
        for expected in cases {
            let text = try #require(expected["token"] as? String)
            guard case .cashu(let ours) = ScannedCode.recognize(text) else {
                Issue.record(
                    "not read as Cashu: \(ScannedCode.recognize(text).explanation) \(text)")
                continue
            }
            #expect(
                Self.fields(of: ours) == PaymentCodesReferee.strings(expected, Self.tokenFields),
                "\(text)")
        }
    }

    @Test func nut00ExamplesReadAlike() throws {
        let texts = [NUT00Vectors.v3, NUT00Vectors.v4]
        let theirs = try PaymentCodesReferee.decode("cashu-decode", texts)
        for (text, reading) in zip(texts, theirs) {
            #expect(reading["error"] == nil, "\(reading)")
            guard case .cashu(let ours) = ScannedCode.recognize(text) else {
                Issue.record("not read as Cashu: \(text.prefix(20))")
                continue
            }
            #expect(Self.fields(of: ours) == PaymentCodesReferee.strings(reading, Self.tokenFields))
        }
    }

    /// Tokens cut short lose their closing JSON brace or CBOR items: both must refuse.
    @Test func truncatedTokensAreRefusedByBoth() throws {
        let cases = try PaymentCodesReferee.objects(["cashu-generate", "8", "20"])
        var truncated: [String] = []
        for expected in cases {
            let text = try #require(expected["token"] as? String).replacing("=", with: "")
            let body = text.count - (text.hasPrefix("cashu:") ? 6 : 0)
            for cut in [4, 5, 9, body / 2, body - 10] where cut < body - 7 {
                truncated.append(String(text.dropLast(cut)))
            }
        }
        let theirs = try PaymentCodesReferee.decode("cashu-decode", truncated)
        for (text, reading) in zip(truncated, theirs) {
            #expect(reading["error"] != nil, "the referee reads a truncated token: \(text)")
            let ours = ScannedCode.recognize(text)
            guard case .unknown = ours else {
                Issue.record("Tender reads a truncated token: \(text)")
                continue
            }
            #expect(ours.problem != nil, "\(text)")
        }
    }

    static let tokenFields = ["version", "mints", "unit", "memo", "total"]

    static func fields(of token: CashuToken) -> [String: String] {
        let mints = token.mints.map { mint in
            "{amounts=[\(mint.amounts.map(String.init).joined(separator: ","))],"
                + "keysets=[\(mint.keysets.joined(separator: ","))],mint=\(mint.mint)}"
        }
        return [
            "version": token.version.rawValue,
            "mints": "[" + mints.joined(separator: ",") + "]",
            "unit": token.unit ?? "nil",
            "memo": token.memo ?? "nil",
            "total": "\(token.total)",
        ]
    }
}

func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// Runs Referee/payment_codes_referee.py.
enum PaymentCodesReferee {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Referee/payment_codes_referee.py").path

    static let python = RefereePython.find(importing: "bolt11, cbor2, coincurve")

    /// Without the referee the suite is skipped on a developer machine, but runs (and fails)
    /// when `CI` is set, so a missing referee never passes silently.
    static var shouldRun: Bool { python != nil || RefereePython.isCI }

    /// The JSON list the referee prints for `arguments`, as objects.
    static func objects(_ arguments: [String]) throws -> [[String: Any]] {
        let python = try #require(
            python,
            "no referee Python with bolt11 and cbor2: run bash Scripts/setup.sh (CI is set, so this fails)"
        )
        let (status, data, stderr) = try RefereePython.run(python, script: script, arguments)
        try #require(
            status == 0,
            "payment_codes_referee.py \(arguments.joined(separator: " ")) failed: \(stderr)")
        return try #require(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    /// The referee's reading of each of `texts` (`command` is bolt11-decode or cashu-decode).
    static func decode(_ command: String, _ texts: [String]) throws -> [[String: Any]] {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("payment-codes-referee-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: texts).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let readings = try objects([command, file.path])
        try #require(readings.count == texts.count)
        return readings
    }

    /// `keys` of a referee object as text, in the form `fields(of:)` writes ours.
    static func strings(_ object: [String: Any], _ keys: [String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: keys.map { ($0, string(object[$0])) })
    }

    /// JSON as text: null is "nil", lists are "[a,b]", objects "{key=value,…}" in key order.
    static func string(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: "nil"
        case let text as String: text
        case let number as NSNumber: number.stringValue
        case let list as [Any]: "[" + list.map { string($0) }.joined(separator: ",") + "]"
        case let object as [String: Any]:
            "{"
                + object.keys.sorted().map { "\($0)=\(string(object[$0]))" }
                .joined(separator: ",") + "}"
        default: "\(value!)"
        }
    }
}
