import Codecs
import TenderTestSupport
import Testing

@Suite struct Keccak256Tests {
    // keccak256("") is Ethereum's empty hash (the Yellow Paper's KEC(()), e.g. the code hash
    // of an account without code); "abc" is the Keccak team's Keccak-256 known answer.
    @Test func knownAnswers() {
        #expect(
            hex(Keccak256.hash([]))
                == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
        #expect(
            hex(Keccak256.hash(Array("abc".utf8)))
                == "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45")
    }

    // FIPS 202 SHA3-256("") differs only in the padding byte (0x06): we must not produce it.
    @Test func isNotSHA3() {
        #expect(
            hex(Keccak256.hash([]))
                != "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a")
    }

    // Lengths 0...300 against eth_hash and pycryptodome (Vectors/keccak_vectors.py).
    @Test func matchesPythonReferees() {
        #expect(KeccakVectors.digests.count == 301)
        for (length, expected) in KeccakVectors.digests.enumerated() {
            let digest = Keccak256.hash(KeccakVectors.input(length: length))
            #expect(hex(digest) == expected, "length \(length)")
        }
    }

    // Around the 136-byte rate: padding in the last byte of a block (135), a full block that
    // needs a padding-only block after it (136), one byte into a second block (137), and two
    // full blocks (272). Split at every point, streaming must match the referee.
    @Test(arguments: [135, 136, 137, 272])
    func rateBoundary(length: Int) {
        let input = KeccakVectors.input(length: length)
        let expected = KeccakVectors.digests[length]
        #expect(hex(Keccak256.hash(input)) == expected)
        for split in 0...length {
            var hasher = Keccak256()
            hasher.update(input[..<split])
            hasher.update(input[split...])
            #expect(hex(hasher.finalize()) == expected, "split at \(split)")
        }
        var byteByByte = Keccak256()
        for byte in input { byteByByte.update([byte]) }
        #expect(hex(byteByByte.finalize()) == expected)
    }

    @Test func streamingInRandomPiecesEqualsOneShot() {
        var random = SeededGenerator(seed: 136)
        for length in 0...300 {
            let input = KeccakVectors.input(length: length)
            var hasher = Keccak256()
            var start = 0
            while start < length {
                let end = min(length, start + Int.random(in: 0...150, using: &random))
                hasher.update(input[start..<end])
                start = end
            }
            #expect(hasher.finalize() == Keccak256.hash(input), "length \(length)")
        }
    }

    @Test func rawBufferAndNonContiguousInputs() {
        let input = KeccakVectors.input(length: 200)
        var raw = Keccak256()
        input.withUnsafeBytes { raw.update($0) }
        #expect(hex(raw.finalize()) == KeccakVectors.digests[200])

        // A lazy collection has no contiguous storage: the copying path.
        let lazy = (0..<200).lazy.map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        #expect(hex(Keccak256.hash(lazy)) == KeccakVectors.digests[200])

        var empty = Keccak256()
        empty.update(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(hex(empty.finalize()) == KeccakVectors.digests[0])
    }

    @Test func copiesAreIndependent() {
        var first = Keccak256()
        first.update(Array("ab".utf8))
        var second = first
        first.update(Array("c".utf8))
        second.update(Array("d".utf8))
        #expect(first.finalize() == Keccak256.hash(Array("abc".utf8)))
        #expect(second.finalize() == Keccak256.hash(Array("abd".utf8)))
    }
}
