import ArgumentParser
import Foundation
import NodeRuntime

/// `tender peers`: payees advertising nearby, as discovery finds them.
struct PeersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peers",
        abstract: "List Tender payees advertising nearby over Bluetooth LE.",
        discussion: """
            Each line: the payee's Bluetooth address, its name, the signal (RSSI, dBm) and what \
            its current request asks (the amount in base units, and the first bytes of the \
            request id). BlueZ may take more than 10 seconds to report a device.
            """)

    @OptionGroup var output: OutputOptions
    @Option(help: "Bluetooth adapter (hci0, hci1, …; default: the first).") var adapter: String?
    @Option(help: "Seconds to listen.") var seconds: Double = 15

    func run() async throws {
        try await guarded {
            let quiet = output.json
            let found = try await NearbyPeers.listen(
                adapterName: adapter, for: .seconds(seconds)
            ) { peer in
                if !quiet { say(PeersCommand.line(peer)) }
            }
            if output.json {
                try printJSON(
                    found.map { peer -> [String: Any] in
                        var entry: [String: Any] = [
                            "address": peer.address, "name": peer.name ?? "",
                        ]
                        if let rssi = peer.rssi { entry["rssi"] = Int(rssi) }
                        if let prefix = peer.requestIDPrefix {
                            entry["requestIdPrefix"] = hex(prefix)
                            if let amount = peer.amount { entry["amount"] = String(amount) }
                        }
                        return entry
                    })
            } else if found.isEmpty {
                say("no payee found in \(seconds) s")
            }
        }
    }

    static func line(_ peer: NearbyPeers.Peer) -> String {
        var parts = [peer.address, peer.name ?? "?", peer.rssi.map { "\($0) dBm" } ?? "? dBm"]
        if let prefix = peer.requestIDPrefix {
            // The tag carries no asset: the amount is shown as sent, in base units.
            if let amount = peer.amount { parts.append("amount \(amount) base units") }
            parts.append("request \(hex(prefix))…")
        }
        return parts.joined(separator: "  ")
    }
}

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}
