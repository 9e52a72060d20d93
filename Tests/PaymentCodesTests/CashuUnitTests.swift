import Codecs
import Testing

@testable import PaymentCodes

/// NUT-01: Cashu amounts are in the smallest unit of their currency (cents for usd and eur).
@Suite struct CashuUnitTests {
    @Test func amountsReadInTheirCurrency() {
        let cases: [(UInt128, String?, String)] = [
            (12_300, "usd", "123.00 usd"), (4_250, "eur", "42.50 eur"), (5, "gbp", "0.05 gbp"),
            (123_456_789, "usd", "1,234,567.89 usd"), (1_500, "jpy", "1,500 jpy"),
            (1_234, "bhd", "1.234 bhd"), (7, "kwd", "0.007 kwd"), (10, "sat", "10 sat"),
            (1_500, "msat", "1,500 msat (1.5 sat)"), (100, "btc", "0.00000100 btc"),
            (250, "usdc", "2.50 usdc"), (42, "auth", "42 (smallest unit of auth)"),
            (10, nil, "10 sat (unit not stated; older wallets assume sat)"),
            (999, "USD", "9.99 USD"),
        ]
        for (value, unit, text) in cases {
            #expect(CashuUnit.text(value, unit: unit) == text)
        }
        #expect(
            CashuUnit.amount(12_300, unit: "usd")
                == PaymentAmount(value: "123.00", unit: "usd", baseUnits: "12300"))
        #expect(
            CashuUnit.amount(42, unit: "auth")
                == PaymentAmount(value: "42", unit: "auth", baseUnits: "42"))
    }

    /// A $123.00 token (12300 cents) reads as 123.00 usd, never 12,300.
    @Test func fiatTokensShowTheirRealAmount() throws {
        for (unit, cents, expected) in [
            ("usd", UInt64(12_300), "123.00 usd"), ("eur", 4_250, "42.50 eur"),
        ] {
            let proof = CBOR.map([
                CBOR.Entry(.text("a"), .unsigned(cents)), CBOR.Entry(.text("s"), .text("secret")),
                CBOR.Entry(.text("c"), .bytes([2] + [UInt8](repeating: 1, count: 32))),
            ])
            let token = CBOR.map([
                CBOR.Entry(.text("m"), .text("https://mint.example")),
                CBOR.Entry(.text("u"), .text(unit)),
                CBOR.Entry(
                    .text("t"),
                    .array([
                        .map([
                            CBOR.Entry(.text("i"), .bytes([0, 1, 2, 3, 4, 5, 6, 7])),
                            CBOR.Entry(.text("p"), .array([proof])),
                        ])
                    ])),
            ])
            let code = ScannedCode.recognize("cashuB" + Base64URL.encode(token.encoded()))
            #expect(
                code.explanation.contains("1 proof worth \(expected) in total"),
                "\(code.explanation)")
            #expect(
                code.report(now: nil, units: { _, _ in .baseUnits }).amount?.baseUnits
                    == String(cents))
        }
    }
}
