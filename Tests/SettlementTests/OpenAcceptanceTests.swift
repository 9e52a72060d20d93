import NodeKit
import NodeTestSupport
import Settlement
import Tender
import TenderTestSupport
import Testing

/// Open-mode acceptance (Docs/PROTOCOL.md, "Issuer acceptance"): an issuer nobody trusts is
/// accepted up to its collateral in the snapshot the last sync read, minus what the wallet
/// already holds of it, and only while its lock outlasts the coin.
@Suite struct OpenAcceptanceTests {
    let node = Node()
    var world: World { node.world }

    /// Bob's wallet, trusting nobody, with the vault's collateral as `chain` reports it.
    func openBob(
        collateral: Amount?, lockedUntil: UInt64? = nil, mode: AcceptanceMode = .open
    ) async throws -> Wallet {
        let bob = try node.wallet(world.bobKey)
        _ = try bob.distrust(world.issuer)
        try bob.setAcceptanceMode(mode)
        let chain = ScriptedChain(vault: world.domain.vault)
        if let collateral {
            await chain.deposit(
                collateral, by: world.issuer, asset: world.asset,
                lockedUntil: lockedUntil ?? world.expiry)
        }
        try await SettlementEngine(wallet: bob, chain: chain, clock: node.clock).refreshCollateral()
        return bob
    }

    /// Notes of `amount` issued straight to Bob, as a payment file.
    func notes(_ amount: Amount, serial: UInt8) -> [UInt8] {
        let note = world.note(amount, to: world.bob, serial: serial)
        let payment = world.payment(
            ProofBundle(notes: [note]), to: world.bob, amount: amount,
            requestID: node.requestID(serial))
        return Envelope(domain: world.domain, message: .payment(payment)).encoded()
    }

    func receive(_ bytes: [UInt8], by bob: Wallet) -> String? {
        do {
            _ = try bob.receive(bytes, key: world.bobKey, now: node.clock.now())
            return nil
        } catch {
            if case .rejected(let reason) = error.kind { return reason.code }
            return "\(error)"
        }
    }

    func held(_ bob: Wallet) throws -> Amount {
        try bob.balances(now: node.clock.now())[world.asset]?.spendable ?? 0
    }

    @Test func anIssuerIsAcceptedUpToItsCollateralLessWhatIsHeld() async throws {
        let bob = try await openBob(collateral: 150)
        #expect(receive(notes(100, serial: 1), by: bob) == nil)
        #expect(receive(notes(100, serial: 2), by: bob) == "exposure-exceeded")
        #expect(try held(bob) == 100)  // the refusal changed nothing
        #expect(receive(notes(50, serial: 3), by: bob) == nil)
        #expect(receive(notes(1, serial: 4), by: bob) == "exposure-exceeded")
        #expect(try held(bob) == 150)
    }

    @Test func theSameNotesAgainGetTheirReceiptEvenAtTheCap() async throws {
        let bob = try await openBob(collateral: 100)
        let bytes = notes(100, serial: 1)
        #expect(receive(bytes, by: bob) == nil)
        #expect(receive(bytes, by: bob) == nil)
        #expect(try held(bob) == 100)
    }

    @Test func anIssuerWithoutCollateralOrWithoutASnapshotIsNotAccepted() async throws {
        #expect(
            receive(notes(1, serial: 1), by: try await openBob(collateral: nil))
                == "untrusted-issuer")
        // Open mode before any sync: trusted issuers only.
        let unsynced = try node.wallet(world.bobKey)
        _ = try unsynced.distrust(world.issuer)
        try unsynced.setAcceptanceMode(.open)
        #expect(try unsynced.collateral() == nil)
        #expect(receive(notes(1, serial: 1), by: unsynced) == "untrusted-issuer")
    }

    @Test func collateralThatUnlocksBeforeTheCoinExpiresDoesNotBackIt() async throws {
        let bob = try await openBob(collateral: 1_000, lockedUntil: world.expiry - 1)
        #expect(receive(notes(10, serial: 1), by: bob) == "collateral-unlocked")
        let unlocked = try await openBob(collateral: 1_000, lockedUntil: 0)
        #expect(receive(notes(10, serial: 1), by: unlocked) == "collateral-unlocked")
    }

    @Test func trustedModeIgnoresTheSnapshot() async throws {
        let bob = try await openBob(collateral: 1_000, mode: .trusted)
        #expect(receive(notes(10, serial: 1), by: bob) == "untrusted-issuer")
        try bob.setAcceptanceMode(.open)
        #expect(receive(notes(10, serial: 1), by: bob) == nil)
    }

    @Test func aTrustedIssuerIsNotCappedInOpenMode() async throws {
        let bob = try await openBob(collateral: 10)
        try bob.trust(world.issuer, now: node.clock.now())
        #expect(receive(notes(500, serial: 1), by: bob) == nil)
        #expect(try held(bob) == 500)
    }

    @Test func theSnapshotIsKeptAcrossReopeningAndReplacedWhole() async throws {
        let bob = try await openBob(collateral: 70, lockedUntil: 1_900_000_000)
        let saved = try #require(try bob.collateral())
        #expect(saved.collateral == [IssuerAsset(issuer: world.issuer, asset: world.asset): 70])
        #expect(saved.lockedUntil == [world.issuer: 1_900_000_000])
        #expect(saved.takenAt == node.clock.now())
        try bob.saveCollateral(
            CollateralSnapshot(block: 9, takenAt: 5, collateral: [:], lockedUntil: [:]))
        #expect(
            try bob.collateral()
                == CollateralSnapshot(block: 9, takenAt: 5, collateral: [:], lockedUntil: [:]))
    }
}
