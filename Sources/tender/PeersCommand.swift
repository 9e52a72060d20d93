import ArgumentParser
import BlueZ
import Bluetooth
import Foundation

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
            let bluetooth = try await BluetoothSession.open()
            let adapter = try await bluetooth.adapter(self.adapter)
            try await adapter.requirePowered()
            let found = try await listen(adapter)
            if output.json {
                try printJSON(
                    found.map { peer -> [String: Any] in
                        var entry: [String: Any] = [
                            "address": peer.address, "name": peer.name ?? "",
                        ]
                        if let rssi = peer.rssi { entry["rssi"] = Int(rssi) }
                        if let tag = peer.manufacturerData[TenderGATT.tagCompany],
                            let read = TenderGATT.readTag(tag)
                        {
                            entry["requestIdPrefix"] = read.idPrefix.map {
                                String(format: "%02x", $0)
                            }.joined()
                            if let amount = read.amount { entry["amount"] = String(amount) }
                        }
                        return entry
                    })
            } else if found.isEmpty {
                say("no payee found in \(seconds) s")
            }
        }
    }

    /// Listens for `seconds`; prints each payee when first seen (text mode).
    private func listen(_ adapter: Adapter) async throws -> [NearbyDevice] {
        var seen: [String: NearbyDevice] = [:]
        for await report in try await adapter.discover(
            service: TenderGATT.service, for: .seconds(seconds))
        {
            if seen[report.address] == nil, !output.json { say(PeersCommand.line(report)) }
            seen[report.address] = report
        }
        return seen.values.sorted { $0.address < $1.address }
    }

    static func line(_ peer: NearbyDevice) -> String {
        var parts = [peer.address, peer.name ?? "?", peer.rssi.map { "\($0) dBm" } ?? "? dBm"]
        if let tag = peer.manufacturerData[TenderGATT.tagCompany],
            let read = TenderGATT.readTag(tag)
        {
            // The tag carries no asset: the amount is shown as sent, in base units.
            if let amount = read.amount { parts.append("amount \(amount) base units") }
            parts.append("request \(read.idPrefix.map { String(format: "%02x", $0) }.joined())…")
        }
        return parts.joined(separator: "  ")
    }
}
