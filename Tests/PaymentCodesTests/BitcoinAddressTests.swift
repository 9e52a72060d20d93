import Testing

@testable import PaymentCodes

/// Segwit vectors: bitcoin/bips `bip-0350.mediawiki`, "Test vectors for v0-v16 native segregated
/// witness addresses" (commit 0310d9eeb1eda5e3626a738394f58b4ee3252074), which supersede
/// BIP-0173's for v1+. Legacy: the BOLT 11 spec's fallback addresses (SpecVectors.swift).
@Suite struct BitcoinAddressTests {
    @Test func validSegwitAddresses() throws {
        let valid: [(String, BitcoinAddress.Network, Int, String)] = [
            (
                "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", .mainnet, 0,
                "751e76e8199196d454941c45d1b3a323f1433bd6"
            ),
            (
                "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", .testnet, 0,
                "1863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262"
            ),
            (
                "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y",
                .mainnet, 1,
                "751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6"
            ),
            ("BC1SW50QGDZ25J", .mainnet, 16, "751e"),
            (
                "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", .mainnet, 2,
                "751e76e8199196d454941c45d1b3a323"
            ),
            (
                "tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy", .testnet, 0,
                "000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433"
            ),
            (
                "tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c", .testnet, 1,
                "000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433"
            ),
            (
                "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", .mainnet, 1,
                "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
            ),
        ]
        for (text, network, version, program) in valid {
            let address = try BitcoinAddress.decode(text)
            #expect(address.network == network, "\(text)")
            guard case .segwit(let gotVersion, let gotProgram) = address.kind else {
                Issue.record("\(text) read as \(address.kind)")
                continue
            }
            #expect(gotVersion == version, "\(text)")
            #expect(hex(gotProgram) == program, "\(text)")
            #expect(address.checksum == (version == 0 ? "bech32" : "bech32m"), "\(text)")
        }
        #expect(
            try BitcoinAddress.decode(
                "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0"
            ).kind.name == "P2TR")
    }

    /// BIP-0350's invalid list: the checksum ones are `badChecksum` (a damaged or mistyped
    /// address), the others malformed; every one is refused on `address`.
    @Test func invalidSegwitAddressesAreRefused() {
        let invalid: [(String, PaymentCodeError.Kind)] = [
            ("tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut", .malformedField),  // HRP
            ("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd", .badChecksum),  // bech32 for v1
            ("tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf", .badChecksum),
            ("BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL", .badChecksum),
            ("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh", .badChecksum),  // bech32m for v0
            ("tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47", .badChecksum),
            ("bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4", .malformedField),  // 'o'
            ("BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R", .malformedField),  // v17
            ("bc1pw5dgrnzv", .malformedField),  // 1-byte program
            (
                "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav",
                .malformedField
            ),
            ("BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P", .malformedField),  // v0 of 16 bytes
            ("tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq", .malformedField),  // mixed case
            ("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf", .malformedField),  // padding
            ("tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j", .malformedField),
            ("bc1gmk9yu", .malformedField),  // empty data
        ]
        for (text, kind) in invalid {
            do {
                let address = try BitcoinAddress.decode(text)
                Issue.record("accepted \(text): \(address)")
            } catch {
                #expect(error.kind == kind, "\(text): \(error)")
                #expect(error.field == "address", "\(text): \(error)")
            }
        }
    }

    @Test func legacyAddressesAreCheckedByBase58Check() throws {
        let valid: [(String, BitcoinAddress.Network, BitcoinAddress.Kind)] = [
            ("1RustyRX2oai4EYYDpQGWvEL62BBGqN9T", .mainnet, .p2pkh),
            ("3EktnHQD7RiAE6uzMj2ZifT9YgRrkSgzQX", .mainnet, .p2sh),
            ("mk2QpYatsKicvFVuTAQLBryyccRXMUaGHP", .testnet, .p2pkh),
            ("1BoatSLRHtKNngkdXEeobR76b53LETtpyT", .mainnet, .p2pkh),
        ]
        for (text, network, kind) in valid {
            let address = try BitcoinAddress.decode(text)
            #expect(address.network == network && address.kind == kind, "\(text)")
            #expect(address.checksum == "base58check")
        }
        // One character changed (T → U), and BIP21's own example address, whose checksum fails.
        for text in ["1RustyRX2oai4EYYDpQGWvEL62BBGqN9U", BIP21Vectors.exampleAddress] {
            do {
                _ = try BitcoinAddress.decode(text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.kind == .badChecksum && error.field == "address", "\(error)")
                #expect(error.message.contains("damaged or mistyped and must not be paid"))
            }
        }
        for text in [
            "1Boat", "0BoatSLRHtKNngkdXEeobR76b53LETtpyT", "1BoatSLRHtKNngkdXEeobR76b53LETtpyT1111",
        ] {
            #expect(throws: PaymentCodeError.self, "\(text)") { try BitcoinAddress.decode(text) }
        }
    }
}
