import Cashu
import CashuStore
import CashuWallet
import Codecs
import Foundation
import NodeHost
import NodeKit
import PaymentCodes
import PaymentSession
import QR
import Secp256k1

/// What a Cashu token given must be: how much, in what unit, from which mint, for whom.
struct CashuGiveTerms {
    var value: UInt64
    var unit: String
    var mint: String
    var memo: String?
    /// The payee's key, when the token must be locked to it (NUT-11).
    var lockTo: PublicKey?

    /// An amount typed as people read it (`2.50` usd), from `mint`, locked to `lockTo` (hex,
    /// or `P2PK:` and hex as nutshell's wallet prints it) when given.
    static func given(
        amount: String, unit: String, mint: String, memo: String?, lockTo: String?
    ) throws(NodeError) -> CashuGiveTerms {
        let unit = unit.lowercased()
        return CashuGiveTerms(
            value: try value(of: amount, unit: unit), unit: unit, mint: try checkedMint(mint),
            memo: memo,
            lockTo: try lockTo.map(Self.lockKey))
    }

    /// `2.50` in usd: 250 (cents), or why it is not an amount.
    static func value(of typed: String, unit: String) throws(NodeError) -> UInt64 {
        do { return try CashuUnit.baseUnits(typed, unit: unit) } catch {
            throw NodeError(.usage("amount: \(error.message)"))
        }
    }

    static func lockKey(_ given: String) throws(NodeError) -> PublicKey {
        let hex = given.hasPrefix("P2PK:") ? String(given.dropFirst(5)) : given
        guard let key = try? PublicKey(serialized: Hex.decode(hex)), hex.count == 66 else {
            throw NodeError(.usage("the lock is not a 33-byte compressed public key in hex"))
        }
        return key
    }

    /// `from(request:mint:held:amount:)` with the mints the wallet on `host` holds.
    static func from(
        request text: String, mint: String?, amount: String?, on host: NodeHost
    ) throws(NodeError) -> CashuGiveTerms {
        let held = try cashu { try host.openCashu(signing: false).store.mints().map(\.url) }
        return try from(
            request: text, mint: try mint.map(checkedMint), held: held, amount: amount)
    }

    /// The terms a NUT-18 request (`creqA…`, `creqb1…`) sets: its amount, unit and memo, the
    /// first of its mints this wallet holds (or `mint`, if the request lists it), its P2PK
    /// lock. Tender hands the token over in-band (shown, printed, or a file), even when the
    /// request names a transport. A request that leaves the amount to the payer (NUT-18 `a`
    /// absent) takes `amount`, typed in its unit; one that names it takes no other.
    static func from(
        request text: String, mint given: String?, held: [String], amount typed: String? = nil
    ) throws(NodeError) -> CashuGiveTerms {
        let request: CashuPaymentRequest
        do { request = try CashuPaymentRequest.decode(text) } catch {
            throw NodeError(.usage("--request is not a Cashu payment request: \(error)"))
        }
        let unit = (request.unit ?? "sat").lowercased()
        let value: UInt64
        switch (request.amount, typed) {
        case (let asked?, nil) where asked > 0: value = asked
        case (nil, let typed?):
            value = try Self.value(of: typed, unit: unit)
            guard value > 0 else { throw NodeError(.usage("the amount must be more than 0")) }
        case (_?, _?):
            throw NodeError(.usage("the request names its amount: give none"))
        default:
            throw NodeError(
                .usage("the request leaves the amount to the payer: give one (in \(unit))"))
        }
        let mint = try mint(listed: request.mints ?? [], given: given, held: held, by: "request")
        var lockTo: PublicKey?
        if let lock = request.lock {
            // As nutshell's wallet does: a lock this wallet cannot honour exactly is refused.
            guard lock.kind == "P2PK", lock.tags?.isEmpty ?? true else {
                throw NodeError(
                    .usage(
                        "the request asks for a \(lock.kind) lock\(lock.tags?.isEmpty == false ? " with conditions" : ""): Tender locks only to a key (P2PK, no conditions)"
                    ))
            }
            guard let key = try? PublicKey(serialized: Hex.decode(lock.data)), lock.data.count == 66
            else {
                throw NodeError(
                    .usage(
                        "the request's P2PK lock is not a 33-byte compressed public key in hex: nothing can be locked to it"
                    ))
            }
            lockTo = key
        }
        return CashuGiveTerms(
            value: value, unit: unit, mint: mint,
            memo: request.requestDescription, lockTo: lockTo)
    }

    /// The mint to give from: `given` if `listed` (what the payee takes; empty: any) has it,
    /// else the first listed mint the wallet holds (`held`), else the only one it holds.
    static func mint(
        listed: [String], given: String?, held: [String], by payee: String
    ) throws(NodeError) -> String {
        let listed = listed.map { Token.normalized(mint: $0) }
        if let given {
            guard listed.isEmpty || listed.contains(given) else {
                throw NodeError(
                    .usage(
                        "the \(payee) takes ecash only from \(listed.joined(separator: ", ")), not \(given)"
                    ))
            }
            return given
        }
        if let first = listed.first(where: held.contains) { return first }
        if listed.isEmpty, held.count == 1 { return held[0] }
        throw NodeError(
            .missing(
                listed.isEmpty
                    ? "the \(payee) names no mint and this wallet holds several: say which"
                    : "this wallet holds no ecash of a mint the \(payee) takes (\(listed.joined(separator: ", ")))"
            ))
    }

    /// The terms a payee nearby sets (its hello, Docs/PROTOCOL.md §10.3): `amount` in `unit`
    /// from the first of its mints this wallet holds (or `mint`, if it takes it), locked to its
    /// key when it takes only locked tokens (which needs the mint online, to split).
    static func nearby(
        _ terms: CashuTerms, amount: String, unit: String, mint: String?, on host: NodeHost
    ) throws(NodeError) -> CashuGiveTerms {
        let held = try cashu { try host.openCashu(signing: false).store.mints().map(\.url) }
        let unit = unit.lowercased()
        let value = try value(of: amount, unit: unit)
        guard value > 0 else { throw NodeError(.usage("the amount must be more than 0")) }
        guard terms.units.contains(unit) else {
            throw NodeError(
                .usage(
                    "the payee takes Cashu in \(terms.units.isEmpty ? "no unit yet" : terms.units.joined(separator: ", ")), not \(unit): nothing was given"
                ))
        }
        var lockTo: PublicKey?
        if terms.lockedOnly {
            guard let key = try? PublicKey(serialized: terms.lockKey) else {
                throw NodeError(.io("the payee's lock key is not a public key"))
            }
            lockTo = key
        }
        return CashuGiveTerms(
            value: value, unit: unit,
            mint: try Self.mint(
                listed: terms.mints, given: try mint.map(checkedMint), held: held, by: "payee"),
            memo: nil, lockTo: lockTo)
    }

    /// Gives the token: offline from proofs that make the amount exactly, else (or to lock it)
    /// split at the mint first, online.
    func give(
        on host: NodeHost, refundAfter: UInt64, now: @escaping @Sendable () -> UInt64
    ) async throws -> CashuPayment {
        if lockTo == nil,
            let offline = try? host.openCashu(signing: false).give(
                value, unit: unit, mint: mint, memo: memo, now: now())
        {
            return offline
        }
        let wallet = try host.openCashu(signing: true)
        let lock = try host.directory.waitForCashuLock()
        defer { withExtendedLifetime(lock) {} }
        let (value, unit, memo, lockTo) = (value, unit, memo, lockTo)
        return try await withMint(mint) { client in
            try await wallet.give(
                value, unit: unit, memo: memo, lockTo: lockTo, refundAfter: refundAfter,
                client: client, now: now)
        }
    }
}

/// A token as one code on this terminal, when it fits one (a long token is given as a file).
func showCashuToken(_ token: String, dark: Bool) throws(NodeError) {
    do {
        let matrix = try QREncoder.encode(Array(token.utf8), level: .low)
        print(matrix.terminalText(inverted: dark))
    } catch {
        throw NodeError(
            .usage(
                "the token is too long for one code (\(token.utf8.count) bytes): give it as a file")
        )
    }
}
