import Testing

@testable import Link

/// Inputs the `link` fuzz target stopped on (Docs/FUZZING.md). The one so far was a wrong
/// invariant of the target's, not a fault of the link; its input pins what the packet
/// framing does with it.
struct LinkFuzzRegressionTests {
    /// `05 02 58f9ff fdff01 00000007`: the 4-byte message 00000007 framed in one start SDU,
    /// the SDU repeated, and the repeat's message id altered from 0 to 1. The repeat alone
    /// is refused; with its id altered it is a valid start of message 1.
    @Test func aRepeatedStartWithAnotherIDIsTheNextMessage() throws {
        let limits = try PacketLimits(mtu: 40, maxMessageBytes: 600)
        var framer = PacketFramer(limits: limits)
        let start = try framer.sdus(for: [0, 0, 0, 7])
        #expect(start == [[0x10, 0, 0, 0, 0, 0, 4, 0, 0, 0, 7]])
        var repeated = PacketReassembler(limits: limits)
        #expect(try repeated.receive(start[0]) == DeliveredMessage(id: 0, bytes: [0, 0, 0, 7]))
        #expect(
            thrown { try repeated.receive(start[0]) }
                == .messageOutOfSequence(message: 0, expected: 1))
        var altered = start[0]
        altered[2] = 0x01
        var reassembler = PacketReassembler(limits: limits)
        _ = try reassembler.receive(start[0])
        #expect(try reassembler.receive(altered) == DeliveredMessage(id: 1, bytes: [0, 0, 0, 7]))
    }
}
