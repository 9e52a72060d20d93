import Codecs
import TenderTestSupport
import Testing

@Suite struct Keccak256BatchTests {
    private func digests(of messages: [[UInt8]]) -> [String] {
        var batch = Keccak256Batch(messages: messages.count)
        for message in messages {
            batch.write(message)
            batch.endMessage()
        }
        #expect(batch.count == messages.count)
        let all = batch.digests()
        #expect(all.count == 32 * messages.count)
        return (0..<messages.count).map { hex(Array(all[32 * $0..<32 * ($0 + 1)])) }
    }

    // Every length 0...300 in one batch, against eth_hash and pycryptodome
    // (Vectors/keccak_vectors.py): lengths up to 135 are one block (eight at a time where the
    // CPU has the kernel), 136 and up are hashed one at a time, interleaved with the others.
    @Test func matchesPythonReferees() {
        let lengths = Array(0...300)
        let found = digests(of: lengths.map { KeccakVectors.input(length: $0) })
        for length in lengths {
            #expect(found[length] == KeccakVectors.digests[length], "length \(length)")
        }
    }

    // Batches of 1 to 17 one-block messages: a lone message, groups that fill the kernel
    // exactly (8, 16), and groups with one or several left over; each digest in its place.
    @Test(arguments: 1...17)
    func everyGroupSize(count: Int) {
        let lengths = (0..<count).map { (($0 &* 37) &+ count) % 136 }
        let found = digests(of: lengths.map { KeccakVectors.input(length: $0) })
        for (index, length) in lengths.enumerated() {
            #expect(found[index] == KeccakVectors.digests[length], "message \(index)")
        }
    }

    // Known answers (Keccak256Tests), mixed among other messages and written in pieces.
    @Test func knownAnswersWrittenInPieces() {
        var batch = Keccak256Batch()
        batch.endMessage()  // ""
        batch.write(Array("a".utf8))
        batch.write(Array("bc".utf8))
        batch.endMessage()  // "abc"
        withUnsafeBytes(of: UInt32(0x6162_6364).bigEndian) { batch.write($0) }
        batch.endMessage()  // "abcd"
        let all = batch.digests()
        #expect(
            hex(Array(all[0..<32]))
                == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
        #expect(
            hex(Array(all[32..<64]))
                == "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45")
        #expect(Array(all[64..<96]) == Keccak256.hash(Array("abcd".utf8)))
    }

    @Test func emptyBatchHasNoDigests() {
        #expect(Keccak256Batch().digests().isEmpty)
        #expect(Keccak256Batch().count == 0)
    }

    // Random messages, random order of lengths: the batch equals hashing each alone.
    @Test func randomMessagesEqualOneAtATime() {
        var random = SeededGenerator(seed: 8)
        let messages = (0..<200).map { _ in
            (0..<Int.random(in: 0...200, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
        }
        let found = digests(of: messages)
        for (index, message) in messages.enumerated() {
            #expect(found[index] == hex(Keccak256.hash(message)), "message \(index)")
        }
    }
}
