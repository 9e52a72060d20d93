import Codecs
import Foundation
import Secp256k1
import Tender

/// Describes any Tender payload for people and for other EIP-712 implementations: each signed
/// struct in `eth_signTypedData_v4` form (types, primaryType, domain, message) with its digest,
/// signature and recovered signer.
public enum Inspection {
    /// A file's envelope: binary, or the same bytes written as hex text.
    public static func envelope(fromFile bytes: [UInt8]) throws(NodeError) -> Envelope {
        var bytes = bytes
        if let text = String(bytes: bytes, encoding: .utf8),
            let decoded = try? Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            bytes = decoded
        }
        do { return try Envelope.decode(bytes) } catch { throw NodeError(.rejected(error)) }
    }

    /// What a person wants to know first, in a few lines: who pays whom how much, who signed.
    public static func summary(_ envelope: Envelope) -> [String] {
        let domain = envelope.domain
        let chain = "chain \(domain.chainID), vault \(domain.vault.checksummed)"
        func signer(_ value: some TypedStruct, _ signature: RecoverableSignature) -> String {
            (try? signature.recoverPublicKey(digest: value.digest(in: domain).bytes)).map {
                Address(publicKey: $0).checksummed
            } ?? "nobody (the signature does not recover)"
        }
        func amount(_ value: Amount, _ asset: Address) -> String {
            asset == .zero ? "\(value) (native coin)" : "\(value) of token \(asset.checksummed)"
        }
        switch envelope.message {
        case .request(let request):
            return [
                "Payment request: \(amount(request.amount, request.asset)) to \(request.payee.checksummed)",
                "memo: \(request.memo.debugDescription)",
                "expires: \(UTCTime.format(request.expiry))", "request id: \(request.id.hex)",
                chain,
            ]
        case .payment(let payment):
            return [
                "Payment: \(amount(payment.amount, payment.asset)) to \(payment.payee.checksummed)",
                "memo: \(payment.memo.debugDescription)",
                "signed by: \(signer(payment.terms, payment.signature))",
                "request id: \(payment.requestID.hex)",
                "coins paid: \(payment.coins.count); proof: \(payment.bundle.notes.count) note(s), \(payment.bundle.transfers.count) transfer(s)",
                "payment digest: \(payment.digest(in: domain).hex)", chain,
            ]
        case .receipt(let signed):
            return [
                "Receipt for request \(signed.receipt.requestID.hex)",
                "signed by: \(signer(signed.receipt, signed.signature))",
                "time: \(UTCTime.format(signed.receipt.time))",
                "payment digest: \(signed.receipt.paymentDigest.hex)", chain,
            ]
        case .evidence(let evidence):
            return [
                "Double spend: coin \(evidence.coin.hex) spent twice by \(evidence.spender.checksummed)",
                "transfers: \(evidence.first.transfer.digest(in: domain).hex) and \(evidence.second.transfer.digest(in: domain).hex)",
                chain,
            ]
        }
    }

    public static func describe(_ envelope: Envelope) -> [String: Any] {
        let domain = envelope.domain
        var result: [String: Any] = [
            "kind": envelope.message.kind, "version": Int(Envelope.version),
            "chainId": String(domain.chainID), "vault": domain.vault.checksummed,
        ]
        switch envelope.message {
        case .request(let request):
            var fields: [String: Any] = [
                "id": request.id.hex, "payee": request.payee.checksummed,
                "amount": String(request.amount), "asset": request.asset.checksummed,
                "memo": request.memo, "expiry": String(request.expiry),
            ]
            fields["sessionKey"] = request.sessionKey.map { Hex.encode($0) }
            result["request"] = fields
        case .payment(let payment):
            // The terms the payer signed, in both forms: plain fields and EIP-712 typed data.
            result["payment"] = signed(
                payment.terms, payment.signature, domain,
                extra: [
                    "requestId": payment.requestID.hex, "payee": payment.payee.checksummed,
                    "amount": String(payment.amount), "asset": payment.asset.checksummed,
                    "memo": payment.memo, "coins": payment.coins.map(\.hex),
                ])
            result["notes"] = payment.bundle.notes.map {
                signed($0.note, $0.signature, domain, extra: ["coin": $0.coinID(in: domain).hex])
            }
            result["transfers"] = payment.bundle.transfers.map { signedTransfer($0, domain) }
        case .receipt(let receipt):
            result["receipt"] = signed(receipt.receipt, receipt.signature, domain, extra: [:])
        case .evidence(let evidence):
            result["evidence"] = [
                "coin": evidence.coin.hex, "spender": evidence.spender.checksummed,
                "first": signedTransfer(evidence.first, domain),
                "second": signedTransfer(evidence.second, domain),
            ]
        }
        return result
    }

    /// A transfer with the ids of the coins it creates.
    static func signedTransfer(_ transfer: SignedTransfer, _ domain: Domain) -> [String: Any] {
        let digest = transfer.transfer.digest(in: domain)
        return signed(
            transfer.transfer, transfer.signature, domain,
            extra: ["outputCoins": transfer.outputCoins(digest: digest).map(\.hex)])
    }

    static func signed(
        _ value: some TypedStruct, _ signature: RecoverableSignature, _ domain: Domain,
        extra: [String: Any]
    ) -> [String: Any] {
        let digest = value.digest(in: domain)
        let recovered = (try? signature.recoverPublicKey(digest: digest.bytes)).map {
            Address(publicKey: $0).checksummed
        }
        var result: [String: Any] = [
            "typedData": [
                "types": typesJSON(for: type(of: value).primaryType),
                "primaryType": type(of: value).primaryType,
                "domain": json(domain.typedValue),
                "message": json(value.typedValue),
            ],
            "digest": digest.hex, "signature": Hex.encode(signature.bytes),
            "signer": recovered ?? NSNull(),
        ]
        for (key, item) in extra { result[key] = item }
        return result
    }

    /// The type and every struct type it references, plus EIP712Domain.
    static func typesJSON(for primary: String) -> [String: Any] {
        var names = ["EIP712Domain", primary]
        if primary == "Transfer" { names.append("Output") }
        var result: [String: Any] = [:]
        for name in names {
            result[name] = (TenderTypes.all[name] ?? []).map { ["name": $0.name, "type": $0.type] }
        }
        return result
    }

    /// EIP-712 values as JSON: integers as decimal strings (uint128 exceeds JSON numbers),
    /// addresses checksummed, bytes as 0x hex.
    static func json(_ values: [String: EIP712.Value]) -> [String: Any] {
        values.mapValues(json)
    }

    static func json(_ value: EIP712.Value) -> Any {
        switch value {
        case .address(let bytes): (try? Address(bytes: bytes))?.checksummed ?? Hex.encode(bytes)
        case .uint(let number): String(number)
        case .uint256Word(let word): Hex.encode(word)
        case .int(let number): String(number)
        case .bool(let flag): flag
        case .fixedBytes(let bytes), .bytes(let bytes): Hex.encode(bytes)
        case .string(let text): text
        case .array(let items): items.map(json)
        case .structure(let fields): json(fields)
        }
    }
}
