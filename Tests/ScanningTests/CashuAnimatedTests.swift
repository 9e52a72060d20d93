import Codecs
import Fountain
import QR
import Testing

@testable import Scanning

/// Cashu wallets animate a large token as BC-UR of type `bytes` (NUT-16): the loop, drawn and
/// read back through real pixels and zbar, gives the token's text; other `bytes` stay refused.
@Suite struct CashuAnimatedTests {
    @Test func aCashuTokenAnimatedAsURBytesComesBackAsItsText() throws {
        let token = "cashuB" + String(repeating: "o2F0gaJhaUgBhZpTTzzczGFwg6RhYRBhc3hA", count: 40)
        let ur = try UR(type: "bytes", cbor: CBOR.bytes(Array(token.utf8)).encoded())
        var encoder = UREncoder(ur: ur, maxFragmentLength: 200)
        #expect(!encoder.isSinglePart)
        let pipeline = ScanPipeline()
        var received: [UInt8]?
        for _ in 0..<(encoder.seqLen * 4) where received == nil {
            let part = encoder.nextPart().uppercased()
            let matrix = try QREncoder.encode(segmentedText: part)
            for event in pipeline.process(matrix.rasterize(scale: 2, border: 4)) {
                if case .payload(let bytes) = event { received = bytes }
            }
        }
        #expect(received.map { String(decoding: $0, as: UTF8.self) } == token)
    }

    @Test func bytesThatAreNotACashuTokenAreRefused() throws {
        let ur = try UR(type: "bytes", cbor: CBOR.bytes(Array("hello".utf8)).encoded())
        var assembler = ScanAssembler()
        let events = assembler.consume(Array(ur.string.utf8))
        #expect(events.count == 1)
        guard case .rejected = events.first else {
            Issue.record("a ur:bytes that is not a token was delivered: \(events)")
            return
        }
    }
}
