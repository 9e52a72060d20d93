import Foundation
import Testing

/// ^C while a payment's codes play on a terminal: the process ends 130 and says what became
/// of the payment (pending, exported again, or cancelled when never shown).
@Suite struct PayInterruptTests {
    @Test func anInterruptedPaymentSaysHowToExportOrCancelIt() throws {
        let (cli, _, _, bob) = try CLI.alicePaysBob(notes: 1, amount: 1000)
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = [
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "10", "--qr",
            "--loops", "100000",
        ]
        process.environment = cli.environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Interrupted once its codes play (the first frame's bytes have come): a wait for
        // that, however slow the machine.
        let first = out.fileHandleForReading.availableData
        #expect(!first.isEmpty)
        kill(process.processIdentifier, SIGINT)
        // Drained while it ends, so a full pipe cannot hold it.
        let drain = Thread { _ = out.fileHandleForReading.readDataToEndOfFile() }
        drain.start()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(said)")
        #expect(said.contains("tender: interrupted"), "\(said)")
        #expect(said.contains("tender payments export 0x"), "\(said)")
        let listed = try cli.ok(["payments", "list", "--data-dir", cli.path("alice"), "--json"])
        let states = (listed.json["payments"] as? [[String: Any]] ?? []).map {
            $0["state"] as? String
        }
        #expect(states == ["pending"])
    }
}
