import Codecs
import TenderTestSupport
import Testing

@testable import Tender

/// The fast, specialised struct hashes must equal the generic EIP-712 encoder's.
@Suite struct TypedDataTests {
    let world = World()

    @Test func typeStringsMatchTheGenericEncoder() throws {
        #expect(try EIP712.encodeType("Note", types: TenderTypes.all) == TenderTypes.note)
        #expect(try EIP712.encodeType("Transfer", types: TenderTypes.all) == TenderTypes.transfer)
        #expect(try EIP712.encodeType("Receipt", types: TenderTypes.all) == TenderTypes.receipt)
        #expect(try EIP712.encodeType("EIP712Domain", types: TenderTypes.all) == TenderTypes.domain)
    }

    @Test func structHashesMatchTheGenericEncoder() throws {
        let (note, transfer, _) = world.alicePaysBob()
        let empty = Transfer(inputs: [], outputs: [])
        let big = Transfer(
            inputs: [.zero, note.coinID(in: world.domain)],
            outputs: [Output(owner: world.bob, amount: .max)])
        let receipt = Receipt(
            requestID: .zero, paymentDigest: note.coinID(in: world.domain), time: .max)
        let values: [any TypedStruct] = [note.note, transfer.transfer, empty, big, receipt]
        for value in values {
            let generic = try EIP712.hashStruct(
                type(of: value).primaryType, value: value.typedValue, types: TenderTypes.all)
            #expect(generic == value.structHash)
            let digest = try EIP712.digest(
                primaryType: type(of: value).primaryType, message: value.typedValue,
                domain: world.domain.typedValue, types: TenderTypes.all)
            #expect(digest == value.digest(in: world.domain).bytes)
        }
    }

    @Test func coinIDsAreKeccakOfDigestAndBigEndianIndex() {
        let (note, transfer, _) = world.alicePaysBob()
        let noteDigest = note.note.digest(in: world.domain)
        #expect(
            note.coinID(in: world.domain).bytes == Keccak256.hash(noteDigest.bytes + [0, 0, 0, 0]))
        let digest = transfer.transfer.digest(in: world.domain)
        #expect(
            world.outputs(of: transfer)[1].bytes == Keccak256.hash(digest.bytes + [0, 0, 0, 1]))
    }

    @Test func addressesFollowEIP55() throws {
        // Test vectors from EIP-55.
        for text in [
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
            "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
            "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
        ] {
            #expect(try Address(text).checksummed == text)
            #expect(try Address(text.lowercased()).checksummed == text)
        }
        #expect(
            rejection { _ = try Address("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD") }
                == "malformed")
        #expect(
            rejection { _ = try Address("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA") } == "malformed"
        )
        // Private key 1's address (well known).
        #expect(
            Address(publicKey: key(1).publicKey).checksummed
                == "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf")
    }
}
