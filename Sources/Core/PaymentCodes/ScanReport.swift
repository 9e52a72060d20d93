import Tender

/// An amount exactly, for programs: no grouping, no rounding.
public struct PaymentAmount: Hashable, Sendable {
    /// Decimal in the unit a person reads (`123.00` usd, `0.0025` BTC).
    public let value: String
    public let unit: String
    /// The integer the code carries, in the smallest unit (cents, satoshis, msat, wei).
    public let baseUnits: String
}

/// One check made on a code, and what it found.
public struct ScanVerdict: Hashable, Sendable {
    /// `address-checksum`, `eip55-checksum`, `bech32-checksum`, `expiry`, …
    public let check: String
    public let ok: Bool
    public let detail: String
}

/// What `tender scan --json` says of a code beyond its explanation: facts a program can act
/// on without parsing text.
public struct ScanReport: Hashable, Sendable {
    /// tender-request, tender-payee, tender-payload, bip21, eip681, bolt11, cashu-token,
    /// cashu-request or unknown.
    public let kind: String
    /// mainnet, testnet, signet or regtest for Bitcoin codes; the chain id for EVM ones.
    public let network: String?
    public let amount: PaymentAmount?
    /// Seconds since 1970, for codes that expire.
    public let expiresAt: UInt64?
    /// Whether `expiresAt` has passed; nil without a clock or an expiry.
    public let expired: Bool?
    public let verdicts: [ScanVerdict]
    /// Why a code that looks like a known format was refused.
    public let problem: PaymentCodeError?

    /// The report as JSON values (keys absent when unknown), for the CLI's encoder.
    public var json: [String: Any] {
        var object: [String: Any] = [
            "kind": kind,
            "verdicts": verdicts.map { ["check": $0.check, "ok": $0.ok, "detail": $0.detail] },
        ]
        if let network { object["network"] = network }
        if let amount {
            object["amount"] = [
                "value": amount.value, "unit": amount.unit, "baseUnits": amount.baseUnits,
            ]
        }
        if let expiresAt { object["expiresAt"] = Self.iso8601(expiresAt) }
        if let expired { object["expired"] = expired }
        if let problem {
            object["problem"] = [
                "code": problem.code, "field": problem.field, "message": problem.message,
            ]
        }
        return object
    }

    /// `2017-06-01T11:57:38Z`.
    public static func iso8601(_ seconds: UInt64) -> String {
        UTCTime.format(seconds).replacing(" UTC", with: "Z").replacing(" ", with: "T")
    }
}

extension ScannedCode {
    public var kind: String {
        switch self {
        case .tenderRequest: "tender-request"
        case .tenderPayee: "tender-payee"
        case .tenderPayload: "tender-payload"
        case .bip21: "bip21"
        case .eip681: "eip681"
        case .bolt11: "bolt11"
        case .cashu: "cashu-token"
        case .cashuRequest: "cashu-request"
        case .unknown: "unknown"
        }
    }

    /// The facts of `ScanReport`; `now` (seconds since 1970, the caller's clock) decides
    /// `expired`, `units` how a Tender amount reads.
    public func report(now: UInt64?, units: (Domain, Address) -> Denomination) -> ScanReport {
        func tender(_ amount: Amount, _ domain: Domain, _ asset: Address) -> PaymentAmount {
            let denomination = units(domain, asset)
            return PaymentAmount(
                value: denomination.isKnown ? denomination.number(amount) : String(amount),
                unit: denomination.symbol ?? "base units", baseUnits: String(amount))
        }
        func expiring(_ at: UInt64) -> (UInt64?, Bool?) { (at, now.map { $0 >= at }) }
        var network: String?
        var amount: PaymentAmount?
        var expiry: (at: UInt64?, expired: Bool?) = (nil, nil)
        var verdicts: [ScanVerdict] = []
        var problem: PaymentCodeError?
        switch self {
        case .tenderRequest(let request):
            network = String(request.domain.chainID)
            amount = tender(request.amount, request.domain, request.asset)
            expiry = expiring(request.expiry)
        case .tenderPayee(let payee):
            network = String(payee.domain.chainID)
        case .tenderPayload(let bytes):
            do {
                let envelope = try Envelope.decode(bytes)
                network = String(envelope.domain.chainID)
                if case .request(let request) = envelope.message {
                    amount = tender(request.amount, envelope.domain, request.asset)
                    expiry = expiring(request.expiry)
                }
            } catch {
                problem = PaymentCodeError(.malformedField, field: "payload", "\(error)")
            }
        case .bip21(let code):
            network = code.bitcoinAddress?.network.rawValue
            if let satoshis = code.satoshis {
                amount = PaymentAmount(
                    value: ExactDecimal.format(UInt128(satoshis), scale: 8), unit: "BTC",
                    baseUnits: String(satoshis))
            }
            if let address = code.bitcoinAddress {
                verdicts.append(
                    ScanVerdict(
                        check: "address-checksum", ok: true,
                        detail: "\(address.checksum) checksum of a \(address.kind.name) address"))
            }
            if !code.requiredUnknown.isEmpty {
                verdicts.append(
                    ScanVerdict(
                        check: "required-parameters", ok: false,
                        detail: "not understood: \(code.requiredUnknown.joined(separator: ", "))"))
            }
        case .eip681(let code):
            network = code.chainID.map { String($0) }
            amount = Self.amount(of: code)
            verdicts = Self.checksumVerdicts(of: code)
        case .bolt11(let code):
            network =
                ["bc": "mainnet", "tb": "testnet", "tbs": "signet", "bcrt": "regtest"][
                    code.network.rawValue]
            if let msat = code.millisatoshis {
                amount = PaymentAmount(
                    value: ExactDecimal.format(msat, scale: 3), unit: "sat",
                    baseUnits: String(msat))
            }
            expiry = expiring(code.expiresAt)
            verdicts.append(
                ScanVerdict(check: "bech32-checksum", ok: true, detail: "the invoice's checksum"))
            if let now {
                verdicts.append(
                    ScanVerdict(
                        check: "expiry", ok: !code.isExpired(now: now),
                        detail: code.expiryText(now: now)))
            }
        case .cashu(let token):
            amount = CashuUnit.amount(token.total, unit: token.unit)
        case .cashuRequest(let request):
            amount = request.amount.map { CashuUnit.amount(UInt128($0), unit: request.unit) }
            if request.encoding == .creqB {
                verdicts.append(
                    ScanVerdict(
                        check: "bech32m-checksum", ok: true, detail: "the request's checksum"))
            }
        case .unknown:
            problem = self.problem
            if let problem, problem.kind == .badChecksum {
                verdicts.append(ScanVerdict(check: "checksum", ok: false, detail: "\(problem)"))
            }
        }
        return ScanReport(
            kind: kind, network: network, amount: amount, expiresAt: expiry.at,
            expired: expiry.expired, verdicts: verdicts, problem: problem)
    }

    /// Native coins by chain id, for the EIP-681 amounts of chains Tender names.
    private static let nativeSymbols: [UInt64: String] = [
        1: "ETH", 10: "ETH", 56: "BNB", 137: "POL", 8453: "ETH", 42161: "ETH", 11_155_111: "ETH",
    ]

    private static func amount(of code: EIP681) -> PaymentAmount? {
        switch code.intent {
        case .native(_, let wei?):
            let symbol = code.chainID.flatMap { nativeSymbols[$0] } ?? "native coin"
            return PaymentAmount(
                value: ExactDecimal.format(wei, scale: 18), unit: symbol, baseUnits: String(wei))
        case .tokenTransfer(_, _, let units?):
            return PaymentAmount(
                value: String(units), unit: "token base units", baseUnits: String(units))
        default: return nil
        }
    }

    private static func checksumVerdicts(of code: EIP681) -> [ScanVerdict] {
        var fields: [(field: String, written: String)] = []
        if case .address = code.target { fields.append(("target_address", code.targetAsScanned)) }
        if let recipient = code.recipientAsScanned,
            recipient.hasPrefix("0x") || recipient.hasPrefix("0X")
        {
            fields.append(("address", recipient))
        }
        return fields.map { field, written in
            let digits = written.dropFirst(2)
            let mixed =
                digits.contains(where: \.isLowercase) && digits.contains(where: \.isUppercase)
            let failed = code.checksumFailures.contains(field)
            let detail =
                failed
                ? "\(field) \(written) fails its EIP-55 checksum: mistyped or damaged"
                : mixed
                    ? "\(field) \(written) carries a correct EIP-55 checksum"
                    : "\(field) \(written) is all one case: no EIP-55 checksum to check"
            return ScanVerdict(check: "eip55-checksum", ok: !failed, detail: detail)
        }
    }
}
