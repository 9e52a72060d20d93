import BlueZ
import Bluetooth
import Foundation
import Link
import Noise
import PaymentSession

// A hostile payer for the BLE lab (Tests/BLELab/scenarios/hostile-payer.sh): it finds a
// payee's `tender receive --ble`, throws at it everything a peer should never send, and checks
// what comes back. Raw datagrams (garbage, truncated frames, declared lengths beyond any
// message, floods of link and message ids) must be ignored; sessions opened with a wrong
// static key, altered or replayed records must end without an answer; a forged payment must
// be refused by name, and a real payment offered twice must bring the same receipt. Between
// attacks it checks the payee still answers a fresh session.
//   BLEHostile PAYMENT-FILE [--adapter hciN]
// Prints "hostile: ATTACK: outcome" lines and "hostile: PASS", or "hostile: FAIL ..." and exits 1.

func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

func fail(_ text: String) -> Never {
    say("hostile: FAIL \(text)")
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, let payment = FileManager.default.contents(atPath: arguments[1])
else { fail("usage: BLEHostile PAYMENT-FILE [--adapter hciN]") }
let adapterName = arguments.firstIndex(of: "--adapter").map { arguments[$0 + 1] }

do {
    let target = try await Target.find(adapter: adapterName)
    try await RawAttacks(target: target).run()
    try await SessionAttacks(target: target, payment: Array(payment)).run()
    await target.close()
    say("hostile: PASS")
} catch {
    fail("\(error)")
}
