import NodeKit
import PaymentSession

/// Double-spend evidence both sides exchange at every session (the most recent, within the
/// session's limits); what comes in is checked by the wallet like any evidence file.
enum NearbyEvidence {
    static func toSend(_ wallet: Wallet) throws -> [[UInt8]] {
        try wallet.evidence()
            .sorted { $0.foundAt > $1.foundAt }
            .map(\.envelope)
            .filter { $0.count <= SessionMessages.maxEvidenceBytes }
            .prefix(SessionMessages.maxEvidenceItems)
            .map { $0 }
    }

    static func take(_ items: [[UInt8]], into wallet: Wallet, now: UInt64) {
        for item in items { _ = try? wallet.importEvidence(item, now: now) }
    }
}
