import Foundation
import Tender
import TenderTestSupport
import Testing
import WalletStore

/// SIGKILL at named points and at random moments inside `pay` and `receive`: after restart
/// nothing is lost, nothing is spendable twice, and every payment can still complete.
@Suite(.serialized) struct CrashTests {
    let total: UInt64 = 1_000

    /// Alice holds ten 100-coins; Bob trusts the same issuer.
    func fundedPair() throws -> (cli: CLI, bob: String) {
        let (cli, _, _, bob) = try CLI.alicePaysBob(notes: 10, amount: 100)
        return (cli, bob)
    }

    /// No coin is both unspent and recorded as consumed; amounts add up to `expected`.
    func checkInvariants(_ cli: CLI, wallet: String, expected: UInt64) throws {
        let store = try WalletDatabase(path: cli.path("\(wallet)/wallet.sqlite"))
        defer { try? store.close() }
        let states = try store.coinStates()
        let unspent = states.filter { $0.value.state == .unspent }.map(\.key)
        #expect(try store.seenSpends(of: unspent).isEmpty, "an unspent coin is recorded as spent")
        let spentPayments = try store.outgoingPayments().filter { $0.state == .spent }
        let paidOut = spentPayments.reduce(UInt64(0)) { $0 + UInt64($1.amount) }
        let balance = try store.balances(now: 0, minimumLifetime: 0)[.zero] ?? Balance()
        #expect(
            UInt64(balance.spendable + balance.pending + balance.inDoubt) + paidOut == expected,
            "value lost or created in \(wallet)")
    }

    /// Completes or cancels whatever a crash left behind, so the next round starts clean.
    func recover(_ cli: CLI) throws {
        let store = try WalletDatabase(path: cli.path("alice/wallet.sqlite"))
        let payments = try store.outgoingPayments()
        try store.close()
        for payment in payments where payment.state == .prepared {
            try cli.ok([
                "payments", "cancel", payment.requestID.hex, "--data-dir", cli.path("alice"),
            ])
        }
        for payment in payments where payment.state == .pending {
            try? FileManager.default.removeItem(atPath: cli.path("resent"))  // `--out` never overwrites
            try cli.ok([
                "payments", "export", payment.requestID.hex, "--data-dir", cli.path("alice"),
                "--out", cli.path("resent"),
            ])
            try cli.ok([
                "receive", cli.path("resent"), "--data-dir", cli.path("bob"), "--receipt-out",
                cli.path("resent-receipt"),
            ])
            try cli.ok(["receipt", cli.path("resent-receipt"), "--data-dir", cli.path("alice")])
        }
    }

    @Test(arguments: ["pay.prepared", "pay.handed-over"])
    func payerCrashAtANamedPoint(_ point: String) throws {
        let (cli, bob) = try fundedPair()
        let result = try cli.run(
            [
                "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "150", "--out",
                cli.path("payment"),
            ],
            extraEnvironment: ["TENDER_CRASH_AT": point])
        #expect(result.signalled)
        try checkInvariants(cli, wallet: "alice", expected: total)
        try recover(cli)
        try checkInvariants(cli, wallet: "alice", expected: total)
        let bobBalance = try cli.balance("bob").spendable
        #expect(bobBalance == (point == "pay.prepared" ? 0 : 150))
        #expect(try cli.balance("alice").spendable + bobBalance == total)
    }

    @Test func payeeCrashAfterAcceptingReturnsTheSameReceiptOnRetry() throws {
        let (cli, bob) = try fundedPair()
        try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "250", "--out",
            cli.path("payment"),
        ])
        let crashed = try cli.run(
            [
                "receive", cli.path("payment"), "--data-dir", cli.path("bob"), "--receipt-out",
                cli.path("receipt"),
            ],
            extraEnvironment: ["TENDER_CRASH_AT": "receive.accepted"])
        #expect(crashed.signalled)
        #expect(!FileManager.default.fileExists(atPath: cli.path("receipt")))
        #expect(try cli.balance("bob").spendable == 250)
        let retry = try cli.ok([
            "receive", cli.path("payment"), "--data-dir", cli.path("bob"), "--receipt-out",
            cli.path("receipt"), "--json",
        ]).json
        #expect(retry["repeated"] as? Bool == true)
        #expect(try cli.balance("bob").spendable == 250)
        try cli.ok(["receipt", cli.path("receipt"), "--data-dir", cli.path("alice")])
        #expect(try cli.balance("alice") == (750, 0, 0))
    }

    /// Kills `pay` and `receive` at random moments (seeded delays spread over a measured run
    /// of each command, so the kills land throughout it however fast the machine is), and in
    /// the first rounds at named crash points, so kills inside the commands happen on any
    /// machine (a random delay may fall after a command ended).
    @Test func randomKillsLoseNothing() throws {
        let (cli, bob) = try fundedPair()
        let clock = ContinuousClock()
        // One uninterrupted payment first: it measures how long each step takes.
        var start = clock.now
        try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "5", "--out",
            cli.path("p"),
        ])
        let payTime = seconds(clock.now - start)
        start = clock.now
        try cli.ok([
            "receive", cli.path("p"), "--data-dir", cli.path("bob"), "--receipt-out", cli.path("r"),
        ])
        let receiveTime = seconds(clock.now - start)
        try cli.ok(["receipt", cli.path("r"), "--data-dir", cli.path("alice")])

        var generator = SeededGenerator(seed: 2026)
        let payCrashes = [0: "pay.prepared", 1: "pay.handed-over"]
        let receiveCrashes = [2: "receive.accepted"]
        var kills = 0
        for round in 0..<16 {
            let amount = String(10 + round)
            let payDelay = Double.random(in: 0...(1.5 * payTime), using: &generator)
            let receiveDelay = Double.random(in: 0...(1.5 * receiveTime), using: &generator)
            let pay = try cli.run(
                [
                    "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", amount,
                    "--out", cli.path("p\(round)"),
                ],
                extraEnvironment: payCrashes[round].map { ["TENDER_CRASH_AT": $0] } ?? [:],
                // A round that crashes receive lets its payment through first.
                killAfter: payCrashes[round] == nil && receiveCrashes[round] == nil ? payDelay : nil
            )
            if pay.signalled { kills += 1 }
            if let point = payCrashes[round] { #expect(pay.signalled, "no crash at \(point)") }
            try checkInvariants(cli, wallet: "alice", expected: total)
            if pay.status == 0 && !pay.signalled {
                let receive = try cli.run(
                    [
                        "receive", cli.path("p\(round)"), "--data-dir", cli.path("bob"),
                        "--receipt-out", cli.path("r\(round)"),
                    ],
                    extraEnvironment: receiveCrashes[round].map { ["TENDER_CRASH_AT": $0] } ?? [:],
                    killAfter: receiveCrashes[round] == nil ? receiveDelay : nil)
                if receive.signalled { kills += 1 }
                if let point = receiveCrashes[round] {
                    #expect(receive.signalled, "no crash at \(point)")
                }
                // Whatever happened, a retry completes it exactly once.
                try cli.ok([
                    "receive", cli.path("p\(round)"), "--data-dir", cli.path("bob"),
                    "--receipt-out", cli.path("r\(round)"),
                ])
                try cli.ok(["receipt", cli.path("r\(round)"), "--data-dir", cli.path("alice")])
            }
            try recover(cli)
            try checkInvariants(cli, wallet: "alice", expected: total)
            let alice = try cli.balance("alice")
            let bobNow = try cli.balance("bob")
            #expect(alice.pending == 0 && alice.inDoubt == 0)
            #expect(alice.spendable + bobNow.spendable == total, "round \(round)")
        }
        #expect(kills > 0, "no kill landed inside a command")
    }

    func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
