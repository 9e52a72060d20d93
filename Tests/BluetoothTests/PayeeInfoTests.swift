import Bluetooth
import Codecs
import Testing

/// The info characteristic's value: the request, and the L2CAP PSM when the payee listens.
@Suite struct PayeeInfoTests {
    @Test func roundTripsWithAndWithoutAChannel() throws {
        for psm in [nil, TenderGATT.psm] as [UInt16?] {
            let info = PayeeInfo(request: [1, 2, 3], psm: psm)
            #expect(try PayeeInfo(decoding: info.encoded) == info)
        }
        // Deterministic CBOR (RFC 8949 §4.2): {1: h'010203', 2: 135}.
        #expect(
            PayeeInfo(request: [1, 2, 3], psm: 0x87).encoded
                == [0xA2, 0x01, 0x43, 1, 2, 3, 0x02, 0x18, 0x87])
    }

    @Test func whatIsNotATenderInfoIsRefusedByName() {
        let refused: [([UInt8], String)] = [
            ([0xFF], "not CBOR"),
            (CBOR.map([CBOR.Entry(.unsigned(2), .unsigned(0x87))]).encoded(), "not a Tender info"),
            (
                CBOR.map([
                    CBOR.Entry(.unsigned(1), .bytes([1])), CBOR.Entry(.unsigned(9), .null),
                ]).encoded(), "not a Tender info"
            ),
            (
                CBOR.map([
                    CBOR.Entry(.unsigned(1), .bytes([1])),
                    CBOR.Entry(.unsigned(2), .unsigned(0x25)),
                ]).encoded(), "not an LE dynamic PSM"
            ),
        ]
        for (bytes, reason) in refused {
            #expect {
                _ = try PayeeInfo(decoding: bytes)
            } throws: { error in
                "\(error)".contains(reason)
            }
        }
    }
}
