import ArgumentParser
import DevTools
import Foundation
import NodeKit
import NodeRuntime
import Tender

extension NearbyPayment.Channel: ExpressibleByArgument {}

extension NearbyPayment.Progress {
    /// The line `tender pay --ble` says, if any; the crash tests' points hit on the way.
    func line(units: Denominations) -> String? {
        switch self {
        case .looking(let adapter): return "looking for the payee on \(adapter)…"
        case .found(let address, let rssi):
            return "found \(address) (\(rssi.map { "\($0) dBm" } ?? "RSSI ?"))"
        case .connected(let overL2CAP): return overL2CAP ? "connected (L2CAP channel)" : "connected"
        case .sessionOpen: return "session open"
        case .resending(let earlier):
            return
                "an earlier payment of \(units.format(earlier.amount, of: earlier.asset)) to this payee is \(earlier.state.rawValue) (request \(earlier.requestID.hex)): sending it again"
        case .earlierReceiptRecorded: return "receipt recorded for the earlier payment"
        case .earlierRefused(let error):
            return
                "the payee refused the earlier payment: \(error.description(in: Failure.wording(units)))"
        case .paying(let event, let terms):
            switch event {
            case .prepared:
                CrashPoint.payPrepared.hit()
                return
                    "payment prepared: \(units.format(terms.amount, of: terms.asset)) to \(terms.payee)"
            case .handedOver:
                CrashPoint.payHandedOver.hit()
                return nil
            case .sent: return "sent"
            case .skipped(let why): return "not this payment's receipt: \(why)"
            case .receipt: return "receipt recorded"
            }
        }
    }
}

extension NearbyPayment.Result {
    func report(json: Bool, units: Denominations) throws {
        if json {
            var fields: [String: Any] = [
                "settled": settled.map(\.json),
                "air": [
                    "bytesWritten": traffic.bytesWritten, "bytesRead": traffic.bytesRead,
                    "roundTrips": traffic.roundTrips, "seconds": seconds,
                    "channel": overL2CAP ? "l2cap" : "gatt",
                ],
            ]
            if let paid { fields.merge(paid.summary) { $1 } }
            try printJSON(fields)
            return
        }
        for earlier in settled where earlier.record.requestID != paid?.requestID {
            switch earlier {
            case .receipt(let record):
                print(
                    "Earlier payment of \(units.format(record.amount, of: record.asset)) to \(record.payee) (request \(record.requestID.hex)): receipt recorded."
                )
            case .refused(let record, let error):
                print(
                    "Earlier payment of \(units.format(record.amount, of: record.asset)) to \(record.payee) (request \(record.requestID.hex)): refused by the payee: \(error.description(in: Failure.wording(units)))"
                )
            }
        }
        if let paid {
            let amount = units.format(paid.amount, of: paid.asset)
            print(
                paid.state == .spent
                    ? "Paid \(amount) to \(paid.payee): receipt recorded."
                    : "Paid \(amount) to \(paid.payee): no receipt yet (pending).")
        } else {
            print(
                "Nothing new paid: an earlier payment to this payee had landed. Run again to pay its current request."
            )
        }
        print(
            "On the air (\(overL2CAP ? "L2CAP channel" : "GATT")): "
                + String(
                    format: "%d B written, %d B read, %d round trips, %.1f s from discovery",
                    traffic.bytesWritten, traffic.bytesRead, traffic.roundTrips, seconds))
    }
}

extension NearbyPayment.Settled {
    var json: [String: Any] {
        switch self {
        case .receipt(let record): return record.summary
        case .refused(let record, let error):
            return record.summary.merging(["refused": "\(error)"]) { $1 }
        }
    }
}

extension OutgoingPaymentRecord {
    var summary: [String: Any] {
        [
            "requestId": requestID.hex, "payee": payee.checksummed, "amount": String(amount),
            "asset": asset.checksummed, "state": state.rawValue, "paymentDigest": digest.hex,
        ]
    }
}
