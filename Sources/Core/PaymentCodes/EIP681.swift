import Tender

/// An `ethereum:` payment request URL (EIP-681): a native-coin payment, an ERC-20
/// `transfer`, or some other contract call.
///
/// Grammar (from the EIP):
///
///     request        = "ethereum" ":" [ "pay-" ] target_address [ "@" chain_id ]
///                      [ "/" function_name ] [ "?" parameters ]
///     target_address = ( "0x" 40*HEXDIG ) / ENS_NAME
///     chain_id       = 1*DIGIT
///     parameters     = parameter *( "&" parameter )
///     parameter      = key "=" value
///     number         = [ "-" / "+" ] *DIGIT [ "." 1*DIGIT ] [ ( "e" / "E" ) [ 1*DIGIT ] ]
///
/// Numbers (`value`, `gas`, `gasLimit`, `gasPrice`, `uint…`/`int…` arguments) are read exactly
/// with integers: `2.014e18` is 2,014,000,000,000,000,000 wei. Values must fit 128 bits
/// (Tender's `Amount`); larger ones are refused by name rather than rounded.
public struct EIP681: Hashable, Sendable {
    public enum Target: Hashable, Sendable, CustomStringConvertible {
        case address(Address)
        /// An ENS name, left for the payer's wallet to resolve.
        case ens(String)

        public var description: String {
            switch self {
            case .address(let address): address.checksummed
            case .ens(let name): name
            }
        }
    }

    /// What the request asks for, as far as the EIP says.
    public enum Intent: Hashable, Sendable {
        /// No function: pay `amount` wei (or leave the amount to the payer).
        case native(to: Target, amount: Amount?)
        /// `transfer(address,uint256)` on the token contract `token`.
        case tokenTransfer(token: Target, to: Target?, amount: Amount?)
        /// Any other function call.
        case contractCall(contract: Target, function: String)
    }

    /// `pay-` prefix present (the only prefix the EIP defines).
    public let hasPayPrefix: Bool
    public let target: Target
    public let chainID: UInt64?
    public let functionName: String?
    /// Every query parameter, percent-decoded, in order.
    public let parameters: [URIParameter]
    /// `value=` in wei, exactly.
    public let value: Amount?
    public let intent: Intent
    /// Fields (`target_address`, `address`) written in mixed case whose EIP-55 checksum
    /// fails. Read anyway — the EIP does not require EIP-55, and its own example fails it —
    /// but `explanation` warns that the address may be mistyped.
    public let checksumFailures: [String]
    /// The target and `address=` parameter exactly as scanned, so an address that fails its
    /// checksum is shown as it was written, never as a corrected form.
    public let targetAsScanned: String
    public let recipientAsScanned: String?

    public static let scheme = "ethereum"

    public static func decode(_ text: String) throws(PaymentCodeError) -> EIP681 {
        guard var rest = URIText.strip(scheme: scheme, from: text[...]) else {
            throw PaymentCodeError(.wrongScheme, field: "scheme", "does not start with 'ethereum:'")
        }
        let hasPay = rest.hasPrefix("pay-")
        if hasPay { rest = rest.dropFirst(4) }
        let query: Substring
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        } else {
            query = rest[rest.endIndex...]
        }
        var functionName: String?
        if let slash = rest.firstIndex(of: "/") {
            let name = rest[rest.index(after: slash)...]
            guard !name.isEmpty else {
                throw PaymentCodeError(
                    .malformedField, field: "function_name", "is empty after '/'")
            }
            functionName = try URIText.percentDecode(name, field: "function_name")
            rest = rest[..<slash]
        }
        var chainID: UInt64?
        if let at = rest.firstIndex(of: "@") {
            chainID = try ExactDecimal.uint64(
                rest[rest.index(after: at)...], field: "chain_id", canonical: false)
            rest = rest[..<at]
        }
        var checksumFailures: [String] = []
        let target = try parseTarget(rest, field: "target_address", failures: &checksumFailures)

        let parameters = try URIText.parameters(query)
        var value: Amount?
        var recipient: Target?
        var recipientAsScanned: String?
        var tokenAmount: Amount?
        for parameter in parameters {
            switch parameter.key {
            case "value":
                value = try ExactDecimal.scientific(parameter.value[...], field: "value")
            case "gas", "gasLimit", "gasPrice":
                _ = try ExactDecimal.scientific(parameter.value[...], field: parameter.key)
            case "address":
                recipient = try parseTarget(
                    parameter.value[...], field: "address", failures: &checksumFailures)
                recipientAsScanned = parameter.value
            case "uint256":
                tokenAmount = try ExactDecimal.scientific(parameter.value[...], field: "uint256")
            default:
                break  // Other ABI-typed arguments are kept in `parameters` as written.
            }
        }
        let intent: Intent =
            switch functionName {
            case nil: .native(to: target, amount: value)
            case "transfer": .tokenTransfer(token: target, to: recipient, amount: tokenAmount)
            case let name?: .contractCall(contract: target, function: name)
            }
        return EIP681(
            hasPayPrefix: hasPay, target: target, chainID: chainID, functionName: functionName,
            parameters: parameters, value: value, intent: intent,
            checksumFailures: checksumFailures, targetAsScanned: String(rest),
            recipientAsScanned: recipientAsScanned)
    }

    private static func parseTarget(
        _ text: Substring, field: String, failures: inout [String]
    ) throws(PaymentCodeError) -> Target {
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            do { return .address(try TenderURI.address(text, field: field)) } catch
                where error.kind == .badChecksum
            {
                failures.append(field)
                return .address(try TenderURI.address(Substring(text.lowercased()), field: field))
            }
        }
        // ENS: dot-separated labels of letters, digits, hyphens (and non-ASCII, which the
        // wallet normalises); at least one dot.
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2,
            labels.allSatisfy({ label in
                !label.isEmpty
                    && label.utf8.allSatisfy {
                        $0 >= 0x80
                            || URIText.isUnreserved($0) && $0 != UInt8(ascii: "~")
                                && $0 != UInt8(ascii: ".")
                    }
            })
        else {
            throw PaymentCodeError(
                .malformedField, field: field,
                "'\(text.prefix(80))' is neither 0x followed by 40 hex digits nor an ENS name")
        }
        return .ens(String(text))
    }

    static let chainNames: [UInt64: String] = [
        1: "Ethereum mainnet", 10: "OP Mainnet", 56: "BNB Smart Chain", 137: "Polygon",
        8453: "Base", 42161: "Arbitrum One", 11_155_111: "Sepolia",
    ]

    /// An address as the explanation shows it: as scanned when it fails its checksum (the
    /// warning is about that text), checksummed otherwise.
    private func shown(_ target: Target?, field: String) -> String {
        guard let target else { return "not given" }
        guard checksumFailures.contains(field) else { return target.description }
        return (field == "address" ? recipientAsScanned : targetAsScanned) ?? target.description
    }

    public var explanation: String {
        let chain: String =
            if let chainID {
                "chain \(chainID)" + (Self.chainNames[chainID].map { " (\($0))" } ?? "")
            } else {
                "the wallet's current chain (no chain id given)"
            }
        var text: String
        switch intent {
        case .native(let to, let amount):
            text = "Ethereum payment request (EIP-681) on \(chain): pay "
            if let amount {
                text +=
                    "\(ExactDecimal.format(amount, scale: 18)) of the native coin (\(amount) wei)"
            } else {
                text += "an amount the payer chooses"
            }
            text += " to \(shown(to, field: "target_address"))."
        case .tokenTransfer(let token, let to, let amount):
            text =
                "ERC-20 token transfer request (EIP-681) on \(chain): token contract \(shown(token, field: "target_address"))"
            text += ", recipient \(shown(to, field: "address"))"
            text +=
                ", amount "
                + (amount.map { "\($0) base units (the token's decimals decide the display)" }
                    ?? "not given") + "."
        case .contractCall(let contract, let function):
            text =
                "Ethereum contract call (EIP-681) on \(chain): call \(function) on \(shown(contract, field: "target_address"))."
        }
        if case .ens = target {
            text += " The address is an ENS name the payer's wallet must resolve."
        }
        for field in checksumFailures {
            let written = (field == "address" ? recipientAsScanned : targetAsScanned) ?? ""
            text +=
                " Warning: the \(field == "address" ? "recipient" : "target") address fails its EIP-55 checksum; it may be mistyped or damaged (\(written) as scanned): do not pay it before checking it with the payee."
        }
        return text
            + " Tender cannot pay it: it is an on-chain Ethereum transaction; use an Ethereum wallet."
    }
}
