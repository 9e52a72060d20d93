import Testing

@testable import PaymentCodes

/// Findings of the `payment-codes` fuzz target (Fuzz/TenderFuzz, Docs/FUZZING.md), kept as
/// regressions. How much memory a refusal takes is checked by the target itself, in the
/// fuzzing build.
@Suite struct PaymentCodesFuzzRegressionTests {
    /// Bech32 copied the whole text before checking its 7,089-character limit: a 450 KB
    /// "invoice" cost a 450 KB copy. The length is checked first now.
    @Test func invoiceOverTheLengthLimitIsRefusedFirst() {
        let invoice = "lnbc1" + String(repeating: "q", count: 64 * 7089)
        do {
            _ = try BOLT11.decode(invoice)
            Issue.record("an invoice of \(invoice.utf8.count) characters was accepted")
        } catch {
            #expect(error.kind == .tooLarge && error.field == "bech32")
        }
        let scanned = ScannedCode.recognize(Array(invoice.utf8))
        #expect(scanned.problem?.kind == .tooLarge)
    }
}
