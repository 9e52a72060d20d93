import Cashu
import CashuTestSupport
import Secp256k1
import Testing

@Suite struct KeysetTests {
    @Test(arguments: nut02KeysetVectors.indices)
    func derivesTheSpecsID(index: Int) throws {
        let vector = nut02KeysetVectors[index]
        let keys = Dictionary(uniqueKeysWithValues: vector.keys.map { ($0.0, point($0.1)) })
        let id = bytes(vector.id)
        let keyset = try Keyset(
            id: id, unit: vector.unit ?? "sat", keys: keys, inputFeePPK: vector.inputFeePPK,
            finalExpiry: vector.finalExpiry)
        #expect(keyset.idHex == vector.id)
        // Any other key, unit, fee or expiry derives another id: refused under this one.
        var changed = keys
        changed[1] = changed[2]
        #expect(throws: CashuError.self) {
            try Keyset(
                id: id, unit: vector.unit ?? "sat", keys: changed, inputFeePPK: vector.inputFeePPK,
                finalExpiry: vector.finalExpiry)
        }
        if id[0] == 0x01 {
            #expect(throws: CashuError.self) {
                try Keyset(
                    id: id, unit: "usd", keys: keys, inputFeePPK: vector.inputFeePPK,
                    finalExpiry: vector.finalExpiry)
            }
            #expect(throws: CashuError.self) {
                try Keyset(
                    id: id, unit: "sat", keys: keys, inputFeePPK: vector.inputFeePPK + 1,
                    finalExpiry: vector.finalExpiry)
            }
            #expect(throws: CashuError.self) {
                try Keyset(
                    id: id, unit: "sat", keys: keys, inputFeePPK: vector.inputFeePPK,
                    finalExpiry: (vector.finalExpiry ?? 0) + 1)
            }
        }
    }

    @Test func refusesUnknownVersionsAndEmptyKeysets() throws {
        let keys = [
            UInt64(1): point("03a40f20667ed53513075dc51e715ff2046cad64eb68960632269ba7f0210e38bc")
        ]
        #expect(throws: CashuError.self) {
            try Keyset(id: [0x02] + [UInt8](repeating: 0, count: 32), unit: "sat", keys: keys)
        }
        #expect(throws: CashuError.self) { try Keyset(id: [0x00, 1, 2], unit: "sat", keys: keys) }
        #expect(throws: CashuError.self) {
            try Keyset(id: Keyset.versionOneID([:]), unit: "sat", keys: [:])
        }
    }

    @Test func feesRoundUpPerInput() throws {
        let keys = [
            UInt64(1): point("03a40f20667ed53513075dc51e715ff2046cad64eb68960632269ba7f0210e38bc")
        ]
        let keyset = try Keyset(
            id: Keyset.versionTwoID(keys, unit: "sat", inputFeePPK: 100, finalExpiry: nil),
            unit: "sat",
            keys: keys, inputFeePPK: 100)
        #expect(keyset.fee(inputs: 0) == 0)
        #expect(keyset.fee(inputs: 1) == 1)
        #expect(keyset.fee(inputs: 10) == 1)
        #expect(keyset.fee(inputs: 11) == 2)
    }
}

@Suite struct MintKeysTests {
    @Test func readsAndChecksTheMintsKeysets() throws {
        let mint = try TestMint()
        let keys = mint.keyset.keys.sorted { $0.key < $1.key }
            .map { "\"\($0.key)\":\"\(hex($0.value.compressed))\"" }.joined(separator: ",")
        let answer =
            #"{"keysets":[{"id":"\#(mint.keyset.idHex)","unit":"sat","active":false,"input_fee_ppk":null,"keys":{\#(keys)}},{"id":"02ab","unit":"sat","keys":{}}]}"#
        let parsed = try Keyset.parse(mintKeys: Array(answer.utf8))
        #expect(parsed.keysets.count == 1)
        #expect(parsed.keysets[0].id == mint.keyset.id && parsed.keysets[0].active == false)
        #expect(parsed.skipped.map(\.id) == ["02ab"])
        // A keyset whose keys do not derive to its id is refused outright.
        let forged = answer.replacing("\"1\":", with: "\"128\":")
        #expect(throws: CashuError.self) { try Keyset.parse(mintKeys: Array(forged.utf8)) }
        #expect(throws: CashuError.self) { try Keyset.parse(mintKeys: Array("{}".utf8)) }
    }
}
