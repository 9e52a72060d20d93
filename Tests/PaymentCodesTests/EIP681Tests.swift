import Tender
import Testing

@testable import PaymentCodes

@Suite struct EIP681Tests {
    @Test func specNativeExample() throws {
        let code = try EIP681.decode(EIP681Vectors.native)
        #expect(code.value == 2_014_000_000_000_000_000)
        #expect(code.chainID == nil)
        guard case .native(.address(let to), let amount) = code.intent else {
            Issue.record("not a native payment: \(code.intent)")
            return
        }
        #expect(to.checksummed.lowercased() == "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359")
        #expect(amount == 2_014_000_000_000_000_000)
        #expect(code.explanation.contains("2.014 of the native coin (2014000000000000000 wei)"))
        // The EIP's own mixed-case address does not carry a valid EIP-55 checksum: it is read,
        // and the explanation warns.
        #expect(code.checksumFailures == ["target_address"])
        #expect(code.explanation.contains("fails its EIP-55 checksum"))
    }

    @Test func specERC20Example() throws {
        let code = try EIP681.decode(EIP681Vectors.erc20)
        #expect(code.functionName == "transfer")
        guard case .tokenTransfer(.address(let token), .address(let to)?, let amount) = code.intent
        else {
            Issue.record("not a token transfer: \(code.intent)")
            return
        }
        #expect(token == (try Address("0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7")))
        #expect(to == (try Address("0x8e23ee67d1332ad560396262c48ffbb01f93d052")))
        #expect(amount == 1)
        #expect(code.explanation.contains("ERC-20"))
        #expect(code.explanation.contains("Tender cannot pay it"))
    }

    @Test func chainIDPayPrefixAndENS() throws {
        let code = try EIP681.decode("ethereum:pay-vitalik.eth@10?value=1.5e17&gas=21000")
        #expect(code.hasPayPrefix)
        #expect(code.chainID == 10)
        #expect(code.target == .ens("vitalik.eth"))
        #expect(code.value == 150_000_000_000_000_000)
        #expect(code.explanation.contains("OP Mainnet"))
        #expect(code.explanation.contains("ENS"))
    }

    /// Scientific notation is read exactly; fractions that do not come out whole are refused.
    @Test func exactNumbers() throws {
        let cases: [(String, Amount)] = [
            ("2.014e18", 2_014_000_000_000_000_000), ("1e18", 1_000_000_000_000_000_000),
            ("1E3", 1000), ("+5", 5), ("-0", 0), ("12", 12), ("1.000e1", 10), ("0.1e1", 1),
            ("1.23456789012345678901e20", 123_456_789_012_345_678_901),
            ("340282366920938463463374607431768211455", Amount.max),
            ("1e0", 1), ("7e", 7),
        ]
        for (text, expected) in cases {
            #expect(try ExactDecimal.scientific(text[...], field: "value") == expected, "\(text)")
        }
        for text in [
            "1.5", "2.0145e3", "-1", "e5", "1..2", "0x10", "1e99", "", ".", "1.e5", "3.5e38",
        ] {
            #expect(throws: PaymentCodeError.self, "\(text)") {
                try ExactDecimal.scientific(text[...], field: "value")
            }
        }
    }

    @Test func refusesMalformed() {
        let bad: [(String, String)] = [
            ("ethereum:0x1234?value=1", "target_address"),
            ("ethereum:0xfb6916095ca1df60bb79Ce92ce3ea74c37c5d35G?value=1", "target_address"),
            ("ethereum:notanaddress?value=1", "target_address"),
            ("ethereum:0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359@x?value=1", "chain_id"),
            ("ethereum:0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359?value=1.5", "value"),
            ("ethereum:0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359?value=-1e18", "value"),
            ("ethereum:0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359?value=1&value=2", "value"),
            (
                "ethereum:0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7/transfer?address=0x12&uint256=1",
                "address"
            ),
            (
                "ethereum:0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7/transfer?address=0x8e23ee67d1332ad560396262c48ffbb01f93d052&uint256=1.5",
                "uint256"
            ),
            ("ethereum:0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7/?uint256=1", "function_name"),
        ]
        for (text, field) in bad {
            do {
                _ = try EIP681.decode(text)
                Issue.record("accepted \(text)")
            } catch { #expect(error.field == field, "\(text): \(error)") }
        }
    }

    @Test func eip55ChecksumFailuresAreReported() throws {
        let valid = try Address("0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359").checksummed
        #expect(try EIP681.decode("ethereum:\(valid)").checksumFailures.isEmpty)
        let broken = "0x" + String(valid.dropFirst(2)).swapFirstLetterCase()
        let code = try EIP681.decode("ethereum:\(broken)/transfer?address=\(broken)&uint256=5")
        #expect(code.checksumFailures == ["target_address", "address"])
        #expect(code.explanation.contains("recipient address fails its EIP-55 checksum"))
        #expect(code.explanation.contains("target address fails its EIP-55 checksum"))
    }
}

/// A mis-cased address is shown as it was scanned beside the warning, never corrected.
@Suite struct EIP681AsScannedTests {
    @Test func aFailingAddressIsShownAsScanned() throws {
        let valid = try Address("0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359").checksummed
        let broken = "0x" + String(valid.dropFirst(2)).swapFirstLetterCase()
        #expect(broken != valid)
        let native = try EIP681.decode("ethereum:\(broken)?value=1e18")
        #expect(native.checksumFailures == ["target_address"])
        #expect(native.explanation.contains("to \(broken)."), "\(native.explanation)")
        #expect(native.explanation.contains("(\(broken) as scanned)"))
        #expect(!native.explanation.contains(valid), "\(native.explanation)")

        let transfer = try EIP681.decode(
            "ethereum:\(valid)/transfer?address=\(broken)&uint256=5")
        #expect(transfer.explanation.contains("recipient \(broken)"), "\(transfer.explanation)")
        #expect(transfer.explanation.contains("token contract \(valid)"))
        let report = ScannedCode.eip681(transfer).report(now: nil, units: { _, _ in .baseUnits })
        #expect(report.verdicts.map(\.ok) == [true, false])
        #expect(report.verdicts.allSatisfy { $0.check == "eip55-checksum" })
        // A correct checksum reads the address checksummed, as before.
        #expect(
            try EIP681.decode("ethereum:\(valid.lowercased())").explanation.contains("to \(valid).")
        )
    }
}
