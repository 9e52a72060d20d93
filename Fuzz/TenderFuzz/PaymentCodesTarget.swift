import PaymentCodes
import Tender

/// Payment codes as a scanner returns them: the `tender:` URI, and the other formats
/// `ScannedCode` recognises (BIP21, EIP-681, BOLT11, Cashu) with their explanations.
enum PaymentCodesTarget {
    static let tenderURI = FuzzTarget(
        name: "tender-uri",
        summary: "TenderURI.decode and decodeAny; accepted codes survive encode and decode",
        run: checkTenderURI)

    static let paymentCodes = FuzzTarget(
        name: "payment-codes",
        summary: "ScannedCode.recognize, BIP21/EIP681/BOLT11/Cashu decode, explanations",
        run: checkPaymentCodes, oversizeCheck: paymentCodesOversize)

    static func checkTenderURI(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let request = try? TenderURI.decode(text)
        if let request {
            let again = try? TenderURI.decode(TenderURI.encode(request))
            require(again == request, "request does not survive encode and decode")
        }
        switch try? TenderURI.decodeAny(text) {
        case .request(let any)?:
            require(any == request, "decodeAny and decode read different requests")
        case .payee(let payee)?:
            require(request == nil, "a code read both as a request and as a payee code")
            let again = try? TenderURI.decodeAny(TenderURI.encode(payee))
            require(again == .payee(payee), "payee code does not survive encode and decode")
        case nil:
            require(request == nil, "decode accepts what decodeAny refuses")
        }
    }

    static func checkPaymentCodes(_ bytes: [UInt8]) {
        let code = ScannedCode.recognize(bytes)
        _ = code.explanation
        _ = code.problem
        if !bytes.starts(with: ScannedCode.payloadPrefix),
            let text = String(validating: bytes, as: UTF8.self)
        {
            require(ScannedCode.recognize(text) == code, "bytes and text recognised differently")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if let code = try? BIP21.decode(text) { _ = code.explanation }
        if let code = try? EIP681.decode(text) { _ = code.explanation }
        if let code = try? BOLT11.decode(text) { _ = code.explanation }
        if let code = try? CashuToken.decode(text) { _ = code.explanation }
        // The bech32 checksum stops nearly every mutated invoice: try it repaired as well.
        if let repaired = Bech32Repair.repairing(text), repaired != text {
            _ = ScannedCode.recognize(Array(repaired.utf8)).explanation
            if let code = try? BOLT11.decode(repaired) { _ = code.explanation }
        }
    }

    /// Formats with a length cap refuse longer text before copying it.
    static func paymentCodesOversize() {
        let cashuCap = CashuToken.maxTokenBytes * 4 / 3 + 16
        let cashu = "cashuB" + String(repeating: "A", count: 16 * cashuCap)
        AllocationMeter.requireAtMost(cashuCap, "Cashu token of \(cashu.utf8.count) characters") {
            do throws(PaymentCodeError) {
                _ = try CashuToken.decode(cashu)
                require(false, "an oversized Cashu token was accepted")
            } catch {
                require(error.kind == .tooLarge, "oversized Cashu token refused with \(error)")
            }
        }
        let bech32Cap = 7089
        let invoice = "lnbc1" + String(repeating: "q", count: 64 * bech32Cap)
        AllocationMeter.requireAtMost(bech32Cap, "invoice of \(invoice.utf8.count) characters") {
            do throws(PaymentCodeError) {
                _ = try BOLT11.decode(invoice)
                require(false, "an oversized invoice was accepted")
            } catch {
                require(error.kind == .tooLarge, "oversized invoice refused with \(error)")
            }
        }
    }
}
