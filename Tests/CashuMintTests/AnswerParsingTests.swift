import Cashu
import Codecs
import Secp256k1
import Testing

@testable import CashuMint

/// The answer readers and request writers without HTTP: a malformed answer is refused naming
/// its field, never trusted and never a crash.
@Suite struct AnswerParsingTests {
    let keysetID = try! Hex.decode(
        "01859a534f3cdccc7c58a5ac9b023d35630bca430c1573ce263e0034ce24ea5506")
    let point = try! PrivateKey(bytes: [UInt8](repeating: 7, count: 32)).publicKey
    var pointHex: String { Hex.encode(point.compressed, prefix: false) }
    var idHex: String { Hex.encode(keysetID, prefix: false) }

    func refusal(_ parse: () throws(MalformedAnswer) -> Void) -> String? {
        do {
            try parse()
            return nil
        } catch { return error.what }
    }

    func json(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    func signature(
        amount: String = "8", id: String? = nil, c: String? = nil, dleq: String = ""
    )
        -> String
    {
        #"{"amount":\#(amount),"id":"\#(id ?? idHex)","C_":"\#(c ?? pointHex)"\#(dleq)}"#
    }

    @Test func swapSignaturesMustMatchTheOutputs() throws {
        let outputs = [BlindedMessage(amount: 8, keysetID: keysetID, blinded: point)]
        func check(_ body: String) throws -> String? {
            let answer = try json(body)
            return refusal { () throws(MalformedAnswer) in
                _ = try BlindSignature.parse(signaturesFor: outputs, in: answer)
            }
        }
        #expect(try check(#"{"signatures":[\#(signature())]}"#) == nil)
        #expect(try check(#"{"signatures":[]}"#)?.contains("0 entries for 1 outputs") == true)
        #expect(try check(#"{"promises":[]}"#) == "answer.signatures is missing")
        #expect(try check(#"{"signatures":{}}"#) == "answer.signatures is not a list")
        #expect(
            try check(#"{"signatures":[\#(signature(amount: "4"))]}"#)?
                .hasPrefix("signatures[0].amount is 4") == true)
        #expect(
            try check(#"{"signatures":[\#(signature(amount: "8.0"))]}"#)
                == "signatures[0].amount is not a whole number of 64 bits")
        #expect(
            try check(#"{"signatures":[\#(signature(amount: "-8"))]}"#)
                == "signatures[0].amount is not a whole number of 64 bits")
        #expect(
            try check(#"{"signatures":[\#(signature(amount: "18446744073709551616"))]}"#)
                == "signatures[0].amount is not a whole number of 64 bits")
        #expect(
            try check(#"{"signatures":[\#(signature(id: "00ffffffffffffff"))]}"#)
                == "signatures[0].id is not the output's keyset")
        #expect(
            try check(
                #"{"signatures":[\#(signature(c: "02" + String(repeating: "0", count: 64)))]}"#)
                == "signatures[0].C_ is not a point on secp256k1")
        #expect(
            try check(#"{"signatures":[\#(signature(c: "zz"))]}"#) == "signatures[0].C_ is not hex")
        #expect(
            try check(#"{"signatures":[\#(signature(c: "02ab"))]}"#)
                == "signatures[0].C_ is 2 bytes, not 33")
        let shortE = #","dleq":{"e":"ab","s":"\#(String(repeating: "1", count: 64))"}"#
        #expect(
            try check(#"{"signatures":[\#(signature(dleq: shortE))]}"#)
                == "signatures[0].dleq.e is 1 bytes, not 32")
    }

    @Test func aBodyThatIsNotJSONIsRefused() {
        let error = refusal { () throws(MalformedAnswer) in
            _ = try JSON.answer(Array("<html>502</html>".utf8))
        }
        #expect(error?.hasPrefix("the answer is not JSON") == true)
    }

    @Test func statesMustAnswerTheYsAskedInOrder() throws {
        let y1 = [0x02] + [UInt8](repeating: 1, count: 32)
        let y2 = [0x03] + [UInt8](repeating: 2, count: 32)
        func state(_ y: [UInt8], _ state: String) -> String {
            #"{"Y":"\#(Hex.encode(y, prefix: false))","state":"\#(state)","witness":null}"#
        }
        func check(_ body: String) throws -> String? {
            let answer = try json(body)
            return refusal { () throws(MalformedAnswer) in
                _ = try ProofState.parseList(answer, asked: [y1, y2])
            }
        }
        let good = try json(#"{"states":[\#(state(y1, "SPENT")),\#(state(y2, "PENDING"))]}"#)
        let states = try ProofState.parseList(good, asked: [y1, y2])
        #expect(states.map(\.state) == [.spent, .pending] && states[0].witness == nil)
        #expect(
            try check(#"{"states":[\#(state(y2, "SPENT")),\#(state(y1, "SPENT"))]}"#)
                == "states[0].Y is not the Y asked in that place")
        #expect(
            try check(#"{"states":[\#(state(y1, "SPENT")),\#(state(y2, "BURNT"))]}"#)?
                .hasPrefix("states[1].state 'BURNT'") == true)
        #expect(
            try check(#"{"states":[\#(state(y1, "SPENT"))]}"#)
                == "states has 1 entries for 2 Ys asked")
    }

    @Test func restoreMustReturnOnlyOutputsAsked() throws {
        let asked = BlindedMessage(amount: 8, keysetID: keysetID, blinded: point)
        let other = try PrivateKey(bytes: [UInt8](repeating: 9, count: 32)).publicKey
        func output(_ key: PublicKey) -> String {
            #"{"amount":8,"id":"\#(idHex)","B_":"\#(Hex.encode(key.compressed, prefix: false))"}"#
        }
        func check(_ body: String) throws -> String? {
            let answer = try json(body)
            return refusal { () throws(MalformedAnswer) in
                _ = try MintClient.restored(answer, asked: [asked])
            }
        }
        #expect(
            try check(#"{"outputs":[\#(output(point))],"signatures":[\#(signature())]}"#) == nil)
        #expect(try check(#"{"outputs":[],"signatures":[]}"#) == nil)
        #expect(
            try check(#"{"outputs":[\#(output(other))],"signatures":[\#(signature())]}"#)?
                .hasPrefix("outputs[0].B_ is not an output asked") == true)
        #expect(
            try check(
                #"{"outputs":[\#(output(point)),\#(output(point))],"signatures":[\#(signature()),\#(signature())]}"#
            )?.hasPrefix("outputs[1].B_ is not an output asked, or repeated") == true)
        #expect(
            try check(#"{"outputs":[\#(output(point))],"signatures":[]}"#)
                == "1 outputs but 0 signatures")

        // Answered in another order: put back in the order asked.
        let second = BlindedMessage(amount: 8, keysetID: keysetID, blinded: other)
        let reversed = try json(
            #"{"outputs":[\#(output(other)),\#(output(point))],"signatures":[\#(signature(c: Hex.encode(other.compressed, prefix: false))),\#(signature())]}"#
        )
        let pairs = try MintClient.restored(reversed, asked: [asked, second])
        #expect(pairs.map(\.0) == [asked, second])
        #expect(pairs.map(\.1.signature) == [point, other])
    }

    @Test func keysetsQuotesAndMeltsAreChecked() throws {
        let shortID = try json(
            #"{"keysets":[{"id":"01859a534f3cdccc","unit":"sat","active":true}]}"#)
        #expect(
            refusal { () throws(MalformedAnswer) in _ = try KeysetState.parseList(shortID) }
                == "keysets[0].id is not a full version 00 or 01 keyset id")
        let noActive = try json(#"{"keysets":[{"id":"\#(idHex)","unit":"sat"}]}"#)
        #expect(
            refusal { () throws(MalformedAnswer) in _ = try KeysetState.parseList(noActive) }
                == "keysets[0].active is missing")

        let quote = try json(
            #"{"quote":"q","request":"lnbc1","amount":64,"unit":"sat","state":"MAYBE"}"#)
        #expect(
            refusal { () throws(MalformedAnswer) in _ = try MintQuote.parse(quote) }?
                .hasPrefix("quote.state 'MAYBE'") == true)

        let blank = BlindedMessage(amount: 1, keysetID: keysetID, blinded: point)
        let melt = try json(
            #"{"quote":"q","amount":100,"fee_reserve":2,"state":"PAID","payment_preimage":"00","change":[\#(signature(amount: "1")),\#(signature(amount: "1"))]}"#
        )
        #expect(
            refusal { () throws(MalformedAnswer) in
                _ = try MeltResult.parse(melt, blankOutputs: [blank])
            } == "change has 2 signatures for 1 blank outputs")
        let result = try MeltResult.parse(melt, blankOutputs: [blank, blank])
        #expect(result.state == .paid && result.change.count == 2 && result.quote.feeReserve == 2)
    }

    @Test func infoListsWhatIsSupportedAndNotDisabled() throws {
        let info = try MintInfo.parse(
            json(
                #"{"name":"M","version":"V/1","nuts":{"4":{"methods":[{"method":"bolt11","unit":"sat"}],"disabled":true},"5":{"methods":[{"method":"bolt11","unit":"sat","min_amount":1}],"disabled":false},"7":{"supported":true},"8":{"supported":false},"17":{"supported":[{"method":"bolt11"}]},"29":{"methods":["bolt11"]},"99":{}}}"#
            ))
        #expect(info.name == "M" && info.version == "V/1")
        #expect(info.supportedNUTs == [5, 7, 17])
        #expect(info.mintMethods.isEmpty && info.meltMethods.first?.minAmount == 1)
    }

    @Test func aRefusalIsReadFromItsErrorBody() {
        let spent = MintClient.refusal(
            Array(#"{"detail":"proofs already spent","code":11001}"#.utf8), status: 400)
        #expect(spent == .refused(code: 11001, detail: "proofs already spent", httpStatus: 400))
        let error = MintError(spent, mint: "https://u:p@mint.example/path?k=1", operation: "swap")
        #expect(error.isAlreadySpent)
        #expect(
            error.description
                == "mint https://***@mint.example/… refused the swap: proofs already spent (code 11001)"
        )
        #expect(
            MintClient.refusal(Array("<html>Bad gateway</html>".utf8), status: 502)
                == .refused(code: nil, detail: "HTTP 502 without a NUT-00 error", httpStatus: 502))
        let long = String(repeating: "x\n", count: 500)
        guard
            case .refused(nil, let detail, 400) = MintClient.refusal(
                Array(#"{"detail":"\#(long.replacing("\n", with: "\\n"))"}"#.utf8), status: 400)
        else {
            Issue.record("not a refusal without code")
            return
        }
        #expect(detail.count == 201 && !detail.contains("\n"))
    }

    @Test func proofsGoWithoutDLEQAndWithTheirSecretAsHeld() throws {
        // Quotes, a backslash, a decomposed é: JSON escapes them, the mint reads the same bytes.
        let secret = #"["P2PK",{"data":"x\"y\\z","nonce":"e\#u{301}"}]"#
        let dleq = try DLEQProof(
            e: [UInt8](repeating: 1, count: 32), s: [UInt8](repeating: 2, count: 32),
            r: [UInt8](repeating: 3, count: 32))
        let proof = Proof(
            amount: 4, keysetID: keysetID, secret: secret, signature: point, dleq: dleq,
            witness: #"{"signatures":["ab"]}"#)
        let encoded = try Wire.proofs([proof], field: "inputs")
        let sent = try JSON.parse(Array(encoded.serialized.utf8))
        let entry = try #require(sent.arrayValue?.first)
        guard case .object(let fields) = entry else {
            Issue.record("not an object")
            return
        }
        #expect(fields.map(\.key) == ["amount", "id", "secret", "C", "witness"])
        #expect(entry["secret"]?.stringValue.map { Array($0.utf8) } == Array(secret.utf8))
        #expect(entry["id"] == .string(idHex) && entry["amount"] == .number("4"))
        #expect(!encoded.serialized.contains("dleq"))
    }

    @Test func onlyFullKeysetIDsAreSent() throws {
        let versionZero = BlindedMessage(
            amount: 1, keysetID: try Hex.decode("009a1f293253e41e"), blinded: point)
        #expect(throws: Never.self) { try Wire.outputs([versionZero]) }
        let short = BlindedMessage(amount: 1, keysetID: Array(keysetID.prefix(8)), blinded: point)
        #expect(throws: MalformedRequest.self) { try Wire.outputs([short]) }
        let odd = BlindedMessage(amount: 1, keysetID: [0x02, 1, 2], blinded: point)
        #expect(throws: MalformedRequest.self) { try Wire.outputs([odd]) }
    }

    @Test func quoteIDsArePathSegments() {
        #expect(MintClient.pathSegment("019e6d5a-2347-7000") == "019e6d5a-2347-7000")
        #expect(MintClient.pathSegment("../keys?x=1") == "..%2Fkeys%3Fx%3D1")
    }
}
