import AsyncHTTPClient
import Cashu
import CashuMint
import CashuStore
import CashuWallet
import Foundation
import NodeHost
import NodeKit
import PaymentCodes

/// A mint URL as given on the command line, normalised; refused unless http or https.
func checkedMint(_ url: String) throws(NodeError) -> String {
    let lower = url.lowercased()
    guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), url.count > 8 else {
        throw NodeError(
            .usage("'\(url.prefix(80))' is not a mint URL: it must start with http:// or https://"))
    }
    return Token.normalized(mint: url)
}

/// Runs `body` with a client for `mint`, shut down after.
func withMint<T>(_ mint: String, _ body: (MintClient) async throws -> T) async throws -> T {
    let http = MintClient.makeHTTPClient()
    do {
        let result = try await body(MintClient(url: mint, client: http))
        try? await http.shutdown()
        return result
    } catch {
        try? await http.shutdown()
        if let error = error as? MintError { throw NodeError(.unavailable(error.description)) }
        throw error
    }
}

/// A store read, its failures as the node's.
func cashu<T>(_ body: () throws -> T) throws(NodeError) -> T {
    do { return try body() } catch {
        if let error = error as? NodeError { throw error }
        throw NodeError(.io("the Cashu store: \(error)"))
    }
}

/// The token given on the command line: itself, a file holding it, or standard input (`-`).
func tokenText(_ argument: String) throws(NodeError) -> String {
    if argument == "-" {
        var text = ""
        while let line = readLine(strippingNewline: false) {
            text += line
            guard text.utf8.count <= 1 << 20 else {
                throw NodeError(.usage("standard input is longer than a token"))
            }
        }
        return text
    }
    let lower = argument.lowercased()
    if lower.hasPrefix("cashu") { return argument }
    guard FileManager.default.fileExists(atPath: argument) else {
        throw NodeError(.missing("'\(argument.prefix(40))' is neither a Cashu token nor a file"))
    }
    do {
        let data = try Data(contentsOf: URL(fileURLWithPath: argument))
        guard data.count <= 1 << 20 else {
            throw NodeError(.usage("\(argument) is longer than a token"))
        }
        return String(decoding: data, as: UTF8.self)
    } catch let error as NodeError { throw error } catch {
        throw NodeError(.io("cannot read \(argument): \(error)"))
    }
}

func cashuJSON(_ payment: CashuPayment) -> [String: Any] {
    var json: [String: Any] = [
        "id": Int(payment.id), "direction": payment.direction.rawValue, "mint": payment.mint,
        "unit": payment.unit, "amount": Int(payment.amount),
        "display": CashuUnit.text(UInt128(payment.amount), unit: payment.unit),
        "state": payment.state.rawValue, "createdAt": Int(clamping: payment.createdAt),
        "updatedAt": Int(clamping: payment.updatedAt), "token": payment.token,
    ]
    if let memo = payment.memo { json["memo"] = memo }
    if let until = payment.lockedUntil { json["lockedUntil"] = Int(clamping: until) }
    if payment.locked > 0 { json["locked"] = Int(clamping: payment.locked) }
    if payment.refused > 0 {
        json["refused"] = Int(payment.refused)
        json["refusal"] = payment.refusal ?? ""
    }
    return json
}

func cashuBalanceJSON(_ balance: CashuBalance) -> [String: Any] {
    [
        "mint": balance.mint, "unit": balance.unit, "spendable": Int(balance.spendable),
        "atRisk": Int(balance.atRisk), "swapping": Int(balance.swapping),
        "locked": Int(balance.locked),
    ]
}

/// One mint's balance in one unit, as a person reads it.
func cashuBalanceText(_ balance: CashuBalance) -> String {
    let amount = { (value: UInt64) in CashuUnit.text(UInt128(value), unit: balance.unit) }
    var line = "\(balance.mint): \(amount(balance.spendable)) spendable"
    if balance.atRisk > 0 {
        line += ", \(amount(balance.atRisk)) taken offline (at risk until swapped)"
    }
    if balance.locked > 0 {
        line +=
            ", \(amount(balance.locked)) taken offline locked to this wallet (the payer cannot spend it)"
    }
    if balance.swapping > 0 {
        line +=
            ", \(amount(balance.swapping)) swapping (a swap at the mint in flight or cut short: the next sync finishes it)"
    }
    return line
}

extension DataDirectory {
    /// The Cashu lock, waited for: when another process holds it (a node's sync pass, a
    /// `tender cashu sync`), standard error says so first, rather than waiting silently.
    func waitForCashuLock() throws(NodeError) -> FileLock {
        do { return try lockForCashu(waiting: false) } catch {
            guard case .busy(let who) = error.kind else { throw error }
            FileHandle.standardError.write(
                Data(
                    "\(who): waiting until it is done (Ctrl-C stops; nothing was changed yet)…\n"
                        .utf8))
            return try lockForCashu()
        }
    }
}
