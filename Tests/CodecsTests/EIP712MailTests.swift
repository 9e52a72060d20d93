import Codecs
import Testing

/// The example of the EIP-712 specification itself (eips.ethereum.org/EIPS/eip-712,
/// "Example.js"): every expected value below is quoted from it.
@Suite struct EIP712MailTests {
    static let types: EIP712.Types = [
        "EIP712Domain": [
            .init(name: "name", type: "string"), .init(name: "version", type: "string"),
            .init(name: "chainId", type: "uint256"),
            .init(name: "verifyingContract", type: "address"),
        ],
        "Person": [.init(name: "name", type: "string"), .init(name: "wallet", type: "address")],
        "Mail": [
            .init(name: "from", type: "Person"), .init(name: "to", type: "Person"),
            .init(name: "contents", type: "string"),
        ],
    ]

    static let domain: [String: EIP712.Value] = [
        "name": .string("Ether Mail"), "version": .string("1"), "chainId": .uint(1),
        "verifyingContract": .address(h("CcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC")),
    ]

    static let message: [String: EIP712.Value] = [
        "from": .structure([
            "name": .string("Cow"),
            "wallet": .address(h("CD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826")),
        ]),
        "to": .structure([
            "name": .string("Bob"),
            "wallet": .address(h("bBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB")),
        ]),
        "contents": .string("Hello, Bob!"),
    ]

    @Test func encodeTypeAndTypeHash() throws {
        #expect(
            try EIP712.encodeType("Mail", types: Self.types)
                == "Mail(Person from,Person to,string contents)Person(string name,address wallet)")
        #expect(
            hex(try EIP712.typeHash("Mail", types: Self.types))
                == "a0cedeb2dc280ba39b857546d74f5549c3a1d7bdc2dd96bf881f76108e23dac2")
    }

    @Test func domainSeparatorStructHashAndDigest() throws {
        let domainSeparator = try EIP712.hashStruct(
            "EIP712Domain", value: Self.domain, types: Self.types)
        #expect(
            hex(domainSeparator)
                == "f2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f")
        let structHash = try EIP712.hashStruct("Mail", value: Self.message, types: Self.types)
        #expect(
            hex(structHash) == "c52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e")
        let digest = "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
        #expect(
            hex(EIP712.digest(domainSeparator: domainSeparator, structHash: structHash)) == digest)
        #expect(
            hex(
                try EIP712.digest(
                    primaryType: "Mail", message: Self.message, domain: Self.domain,
                    types: Self.types)) == digest)
    }
}
