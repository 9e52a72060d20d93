import ArgumentParser
import CashuStore
import Foundation
import NodeKit
import NodeRuntime
import PaymentCodes
import Tender

/// `tender pay --cashu`: a Cashu token given from the Cashu wallet (Docs/CASHU.md), as
/// `tender cashu send` gives it, for a payee's request or an amount; with `--ble`, handed to
/// a payee nearby in a payment session.
extension PayCommand {
    func validateCashu() throws {
        guard camera == nil, video.framesOut == nil else {
            throw ValidationError(
                "--cashu hands the token over printed, with --qr, with --out or with --ble: drop --camera and --frames-out"
            )
        }
        if ble {
            guard request == nil, image == nil, out == nil, !qr else {
                throw ValidationError(
                    "--cashu --ble takes the payee's terms from its hello: drop --request, --image, --out and --qr"
                )
            }
            guard (amount == nil) != (token == nil) else {
                throw ValidationError("--cashu --ble needs --amount, or --token FILE")
            }
            return
        }
        guard token == nil else { throw ValidationError("--token goes with --cashu --ble") }
        if request == nil {
            guard amount != nil, mint != nil else {
                throw ValidationError("--cashu needs --request creqA…, or --amount and --mint")
            }
        } else if to != nil {
            throw ValidationError("--request sets the lock: drop --to")
        }
    }

    func payCashu() async throws {
        if ble { return try await payCashuNearby() }
        try await guarded {
            let terms =
                try request.map { request throws(NodeError) in
                    try CashuGiveTerms.from(
                        request: request, mint: mint, amount: amount, on: global.host)
                }
                ?? CashuGiveTerms.given(
                    amount: amount ?? "", unit: unit, mint: mint ?? "",
                    memo: memo.isEmpty ? nil : memo, lockTo: to)
            try await handOver(
                terms, host: global.host, clock: global.clock, refundAfter: 7 * 24 * 3600,
                out: out, qr: qr, dark: dark, json: output.json)
        }
    }

    /// The token, given for the payee's terms (or the one `--token` names), offered to the
    /// first payee nearby that takes Cashu tokens (the one `--to` names).
    private func payCashuNearby() async throws {
        try await guarded {
            let (host, clock, quiet) = (global.host, global.clock, output.json)
            let payment = NearbyCashuPayment(
                adapterName: adapter, scanSeconds: scanSeconds,
                payee: try to.map { try parseAddress($0, option: "--to") })
            let handed = try token.map {
                try tokenText($0).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            var given: CashuPayment?
            let result: NearbyCashuPayment.Result
            do {
                result = try await payment.run(
                    progress: { progress in
                        guard !quiet, let line = progress.cashuLine else { return }
                        say(line)
                    },
                    token: { terms, payee in
                        if let handed { return handed }
                        let terms = try CashuGiveTerms.nearby(
                            terms, amount: amount ?? "", unit: unit, mint: mint, on: host)
                        let payment = try await terms.give(
                            on: host, refundAfter: 7 * 24 * 3600, now: { clock.now() })
                        given = payment
                        if !quiet {
                            say(
                                "token of \(CashuUnit.text(UInt128(payment.amount), unit: payment.unit)) from \(payment.mint) made for \(payee) (payment \(payment.id))"
                            )
                        }
                        return payment.token
                    })
            } catch let refused as NearbyCashuPayment.Refused {
                throw NodeError(
                    .refusedByPayee(code: refused.code, reason: refused.reason),
                    note: given.map { Self.kept($0, refused: true) })
            } catch let error as NodeError where given != nil {
                throw NodeError(error.kind, note: Self.kept(given!, mayHaveLanded: true))
            }
            if let given, result.taken == nil {
                // A token made just now it cannot have had: no proof it took it.
                throw NodeError(
                    .refusedByPayee(
                        code: "exists", reason: "the payee says it had a token made just now"),
                    note: Self.kept(given, mayHaveLanded: true))
            }
            try report(result, given: given)
        }
    }

    /// Where a token given but not taken is, and what to do with it.
    private static func kept(
        _ payment: CashuPayment, mayHaveLanded: Bool = false, refused: Bool = false
    ) -> String {
        let kept =
            "it is kept as payment \(payment.id) (`tender cashu history --json` shows its text)"
        // A refusing payee has seen a bearer token: only a swap makes it this wallet's again.
        if refused {
            return kept
                + "; the payee has seen it, so take it back at once, swapped at the mint: `tender cashu receive --online`"
        }
        return (mayHaveLanded ? "the token may have reached the payee: " : "") + kept
            + "; hand it over again with --token, or take it back with `tender cashu receive --online`"
    }

    private func report(_ result: NearbyCashuPayment.Result, given: CashuPayment?) throws {
        if output.json {
            var fields: [String: Any] = [
                "payee": result.payee.checksummed, "hadIt": result.taken == nil,
                "air": [
                    "bytesWritten": result.traffic.bytesWritten,
                    "bytesRead": result.traffic.bytesRead,
                    "roundTrips": result.traffic.roundTrips,
                ],
            ]
            if let taken = result.taken {
                fields["taken"] = [
                    "amount": Int(clamping: taken.amount), "unit": taken.unit, "mint": taken.mint,
                ]
            }
            if let given { fields["payment"] = cashuJSON(given) }
            try printJSON(fields)
            return
        }
        guard let taken = result.taken else {
            // Handed over earlier, on a link that then failed.
            print("The payee \(result.payee) holds this token already: nothing more was given.")
            return
        }
        let text = terminalSafe(CashuUnit.text(UInt128(taken.amount), unit: taken.unit))
        print(
            "Paid \(text) in Cashu from \(terminalSafe(taken.mint)) to \(result.payee): it holds the token offline until it swaps it at the mint."
        )
        // The payee's words against the token's: a payee that says less took it all the same.
        if let given, given.amount != taken.amount || given.unit != taken.unit {
            note(
                "tender: warning: the token given was \(CashuUnit.text(UInt128(given.amount), unit: given.unit)) (payment \(given.id)); the payee says it took \(text)"
            )
        }
    }
}

extension NearbyPayment.Progress {
    /// The line `tender pay --ble --cashu` says while finding the payee.
    var cashuLine: String? {
        switch self {
        case .looking(let adapter): "looking for a payee taking Cashu on \(adapter)…"
        case .found(let address, let rssi):
            "found \(address) (\(rssi.map { "\($0) dBm" } ?? "RSSI ?"))"
        case .connected: "connected"
        case .sessionOpen: "session open"
        default: nil
        }
    }
}
