import Codecs
import Secp256k1
import TenderTestSupport
import Testing

@testable import Tender

@Suite struct WireTests {
    let world = World()

    func paymentEnvelope() -> [UInt8] {
        let (_, _, bundle) = world.alicePaysBob()
        let payment = world.payment(bundle, to: world.bob, amount: 60, memo: "tea")
        return Envelope(domain: world.domain, message: .payment(payment)).encoded()
    }

    @Test func roundTripsEveryKind() throws {
        let bytes = paymentEnvelope()
        #expect(Array(bytes.prefix(3)) == [0xD9, 0xD9, 0xF7])
        let decoded = try Envelope.decode(bytes, expecting: world.domain)
        guard case .payment(let payment) = decoded.message else { Issue.record("kind"); return }
        #expect(payment.memo == "tea")
        #expect(payment.bundle == world.alicePaysBob().bundle)
        #expect(Envelope(domain: decoded.domain, message: decoded.message).encoded() == bytes)

        let request = try PaymentRequest(
            id: .zero, payee: world.bob, amount: Amount(UInt64.max) + 5, asset: .zero, memo: "m",
            expiry: 9, sessionKey: [UInt8](repeating: 3, count: 32), domain: world.domain)
        let requestBytes = Envelope(domain: world.domain, message: .request(request)).encoded()
        guard case .request(let back) = try Envelope.decode(requestBytes).message else {
            Issue.record("kind"); return
        }
        #expect(back == request)

        let receipt = try SignedReceipt(
            signing: Receipt(requestID: .zero, paymentDigest: .zero, time: 5), with: world.bobKey,
            in: world.domain)
        guard
            case .receipt(let receiptBack) = try Envelope.decode(
                Envelope(domain: world.domain, message: .receipt(receipt)).encoded()
            ).message
        else { Issue.record("kind"); return }
        #expect(receiptBack == receipt)
    }

    @Test func refusesAnotherChainOrVaultByName() throws {
        let bytes = paymentEnvelope()
        let elsewhere = Domain(chainID: 1, vault: world.domain.vault)
        do {
            _ = try Envelope.decode(bytes, expecting: elsewhere)
            Issue.record("accepted")
        } catch {
            #expect(error.code == "wrong-domain")
            #expect(error.description.contains("wrong chain id"))
        }
    }

    @Test func everyTruncationIsMalformed() {
        let bytes = paymentEnvelope()
        for length in 0..<bytes.count {
            #expect(
                rejection { _ = try Envelope.decode(Array(bytes.prefix(length))) } == "malformed",
                "prefix \(length)")
        }
    }

    @Test func refusesNonCanonicalEncodings() throws {
        let canonical = paymentEnvelope()
        guard case .tagged(let tag, let content) = try CBOR.decode(canonical) else {
            Issue.record("shape"); return
        }
        // Same content with a trailing byte, and with an extra unknown field.
        #expect(rejection { _ = try Envelope.decode(canonical + [0x00]) } == "malformed")
        guard case .map(var entries) = content else { Issue.record("shape"); return }
        entries.append(CBOR.Entry(.unsigned(9), .null))
        #expect(
            rejection { _ = try Envelope.decode(CBOR.tagged(tag, .map(entries)).encoded()) }
                == "malformed")
        // An amount written as a bignum although it fits in 64 bits is not canonical.
        let small = CBOR.tagged(2, .bytes([0x01]))
        #expect(rejection { _ = try WireReader(small, path: "a").amount() } == "malformed")
        // A length head in non-shortest form (0x18 0x05 instead of 0x05).
        #expect(
            rejection { _ = try Envelope.decode([0xD9, 0xD9, 0xF7, 0xA5, 0x18, 0x00]) }
                == "malformed")
        // Without the self-described tag it is not a Tender payload.
        #expect(rejection { _ = try Envelope.decode(content.encoded()) } == "malformed")
    }

    @Test func corruptedBytesNeverDecodeToADifferentValidPayment() throws {
        let bytes = paymentEnvelope()
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<500 {
            var corrupted = bytes
            let index = Int(generator.next() % UInt64(bytes.count))
            corrupted[index] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
            guard let envelope = try? Envelope.decode(corrupted, expecting: world.domain),
                case .payment(let payment) = envelope.message
            else { continue }
            // If it still decodes, offline verification must catch the change.
            if payment.bundle != world.alicePaysBob().bundle {
                #expect(throws: ProtocolError.self) {
                    try world.verifier.check(
                        payment, payee: world.bob, policy: world.policy, now: world.now)
                }
            }
        }
    }

    @Test func amountsUpTo2To128() throws {
        for amount in [
            Amount(0), 1, 23, 24, Amount(UInt64.max), Amount(UInt64.max) + 1, Amount.max,
        ] {
            #expect(try WireReader(amount.cbor, path: "a").amount() == amount)
        }
        #expect(
            rejection {
                _ = try WireReader(.tagged(2, .bytes([UInt8](repeating: 1, count: 17))), path: "a")
                    .amount()
            } == "malformed")
    }
}
