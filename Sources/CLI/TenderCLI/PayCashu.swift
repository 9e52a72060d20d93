import ArgumentParser
import NodeKit

/// `tender pay --cashu`: a Cashu token given from the Cashu wallet (Docs/CASHU.md), as
/// `tender cashu send` gives it, for a payee's request or an amount.
extension PayCommand {
    func validateCashu() throws {
        guard !ble, camera == nil, video.framesOut == nil else {
            throw ValidationError(
                "--cashu hands the token over printed, with --qr, or with --out: drop --ble, --camera and --frames-out"
            )
        }
        if request == nil {
            guard amount != nil, mint != nil else {
                throw ValidationError("--cashu needs --request creqA…, or --amount and --mint")
            }
        } else if to != nil {
            throw ValidationError("--request sets the lock: drop --to")
        }
    }

    func payCashu() async throws {
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
}
