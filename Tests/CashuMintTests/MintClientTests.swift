import Cashu
import CashuMint
import Codecs
import Testing

/// MintClient against a real mint (nutshell, FakeWallet): each test mints its own ecash, so
/// the tests need no order.
@Suite(.cashuMint) struct MintClientTests {
    let rig: CashuMintRig
    var mint: MintClient { rig.mint }

    init() throws { rig = try #require(CashuMintRig.current) }

    @Test func readsInfoKeysAndKeysets() async throws {
        let info = try await mint.info()
        #expect(info.version?.hasPrefix("Nutshell/") == true)
        #expect(info.supportedNUTs.isSuperset(of: [4, 5, 7, 9, 12]))
        #expect(Set(info.mintMethods.map(\.unit)) == ["sat", "usd"])

        let keys = try await mint.keys()
        let sat = try #require(keys.keysets.first { $0.unit == "sat" })
        #expect(sat.idHex == CashuMintRig.satKeysetID)
        #expect(sat.keys.count == 64 && sat.active && sat.inputFeePPK == 0)
        #expect(keys.skipped.isEmpty)

        let states = try await mint.keysetStates()
        #expect(Set(states.map(\.unit)) == ["sat", "usd"])
        #expect(states.allSatisfy { $0.active && $0.inputFeePPK == 0 && $0.finalExpiry == nil })
        #expect(states.contains { $0.idHex == CashuMintRig.satKeysetID })
    }

    @Test func mintsEcashThatUnblinds() async throws {
        let keyset = try await rig.satKeyset()
        let quote = try await mint.mintQuote(amount: 64, unit: "sat")
        #expect(quote.state == .unpaid && quote.amount == 64 && quote.request.hasPrefix("lnbc"))
        #expect(try await rig.paid(quote).state == .paid)

        let outputs = rig.outputs(UInt64(64).powersOfTwo, keyset: keyset)
        let signatures = try await mint.mint(quote: quote.quote, outputs: outputs.map(\.message))
        let proofs = try zip(outputs, signatures).map { try $0.proof(from: $1, keyset: keyset) }
        #expect(proofs.map(\.amount) == [64])
        #expect(try await mint.mintQuoteState(quote.quote).state == .issued)
        let states = try await mint.checkState(proofs.map { try $0.y() })
        #expect(states.map(\.state) == [.unspent])
    }

    @Test func swapSpendsItsInputsOnce() async throws {
        let keyset = try await rig.satKeyset()
        let old = try await rig.mintProofs(64, keyset: keyset)
        let outputs = rig.outputs([32, 16, 8, 4, 2, 1, 1], keyset: keyset)
        let signatures = try await mint.swap(inputs: old, outputs: outputs.map(\.message))
        let new = try zip(outputs, signatures).map { try $0.proof(from: $1, keyset: keyset) }
        #expect(new.map(\.amount) == [32, 16, 8, 4, 2, 1, 1])

        let states = try await mint.checkState((old + new).map { try $0.y() })
        #expect(states.prefix(old.count).allSatisfy { $0.state == .spent })
        #expect(states.dropFirst(old.count).allSatisfy { $0.state == .unspent })

        let again = rig.outputs([64], keyset: keyset).map(\.message)
        do {
            _ = try await mint.swap(inputs: old, outputs: again)
            Issue.record("a second swap of the same proofs went through")
        } catch {
            #expect(error.isAlreadySpent, "\(error)")
            #expect(error.description.contains("mint \(rig.url) refused the swap"))
            #expect(error.description.contains("(code 11001)"))
        }
    }

    @Test func restoreGivesBackASwapsSignatures() async throws {
        let keyset = try await rig.satKeyset()
        let inputs = try await rig.mintProofs(8, keyset: keyset)
        let outputs = rig.outputs([4, 2, 2], keyset: keyset)
        let signatures = try await mint.swap(inputs: inputs, outputs: outputs.map(\.message))

        // A wallet that lost the answer asks again, with an output never sent among them.
        let neverSent = rig.outputs([1], keyset: keyset)
        let restored = try await mint.restore((neverSent + outputs).map(\.message))
        #expect(restored.map(\.0) == outputs.map(\.message))
        for ((output, signature), (_, again)) in zip(zip(outputs, signatures), restored) {
            #expect(again.signature == signature.signature)
            #expect(
                try output.proof(from: again, keyset: keyset)
                    == output.proof(from: signature, keyset: keyset))
        }
    }

    @Test func swapsATokenNutshellSent() async throws {
        try rig.fund("sender", 1000)
        let sent = try rig.wallet("sender", ["send", "--dleq", "100"])
        let text = try #require(
            sent.split(whereSeparator: \.isWhitespace).last { $0.hasPrefix("cashuB") })
        let token = try Token.decode(String(text))
        #expect(token.mint == rig.url && token.amount == 100)

        // The token names its keyset by the short id, which the mint does not know.
        let keyset = try await rig.satKeyset()
        let outputs = rig.outputs(token.proofs.map(\.amount), keyset: keyset)
        do {
            _ = try await mint.swap(inputs: token.proofs, outputs: outputs.map(\.message))
            Issue.record("proofs with short keyset ids were sent")
        } catch {
            guard case .invalidRequest(let what) = error.kind else { throw error }
            #expect(what.contains("short form"))
        }

        let states = try await mint.keysetStates()
        let inputs = try token.proofs.map { proof in
            Proof(
                amount: proof.amount,
                keysetID: try #require(states.fullID(matching: proof.keysetID)),
                secret: proof.secret, signature: proof.signature, dleq: proof.dleq,
                witness: proof.witness)
        }
        let signatures = try await mint.swap(inputs: inputs, outputs: outputs.map(\.message))
        let proofs = try zip(outputs, signatures).map { try $0.proof(from: $1, keyset: keyset) }
        #expect(proofs.reduce(0) { $0 + $1.amount } == 100)

        // Spent already: nutshell's wallet cannot receive it.
        #expect(throws: MintTestFailure.self) {
            try rig.wallet("receiver", ["receive", String(text)])
        }
    }

    @Test func meltPaysAnInvoiceAndReturnsChange() async throws {
        let keyset = try await rig.satKeyset()
        let invoice = try rig.externalInvoice(sats: 100)
        let quote = try await mint.meltQuote(invoice: invoice, unit: "sat")
        #expect(quote.amount == 100 && quote.feeReserve > 0 && quote.state == .unpaid)

        let inputs = try await rig.mintProofs(quote.amount + quote.feeReserve, keyset: keyset)
        // NUT-08: enough blank outputs for any change up to the reserve.
        var blankCount = 0
        while 1 << blankCount < quote.feeReserve { blankCount += 1 }
        let blanks = rig.outputs(Array(repeating: 1, count: max(blankCount, 1)), keyset: keyset)
        let result = try await mint.melt(
            quote: quote.quote, inputs: inputs, outputs: blanks.map(\.message))
        #expect(result.state == .paid && result.preimage != nil)

        // The mint sets the change's amounts: each blank output unblinded at its amount.
        let change = try zip(blanks, result.change).map { blank, signature in
            try PreparedOutput(
                amount: signature.amount, keysetID: blank.keysetID, secret: blank.secret,
                r: blank.r
            ).proof(from: signature, keyset: keyset)
        }
        // The FakeWallet's payment costs 1 sat of the reserve.
        #expect(change.reduce(0) { $0 + $1.amount } == quote.feeReserve - 1)
        let states = try await mint.checkState((inputs + change).map { try $0.y() })
        #expect(states.prefix(inputs.count).allSatisfy { $0.state == .spent })
        #expect(states.dropFirst(inputs.count).allSatisfy { $0.state == .unspent })
        #expect(try await mint.meltQuoteState(quote.quote).state == .paid)
    }

    @Test func aRefusedMeltLeavesItsInputsUnspent() async throws {
        let keyset = try await rig.satKeyset()
        let quote = try await mint.meltQuote(
            invoice: try rig.externalInvoice(sats: 100), unit: "sat")
        let inputs = try await rig.mintProofs(64, keyset: keyset)
        do {
            _ = try await mint.melt(quote: quote.quote, inputs: inputs, outputs: [])
            Issue.record("the mint paid 100 sat for 64")
        } catch {
            guard case .refused(_, _, 400) = error.kind else { throw error }
            #expect(!error.isAlreadySpent)
        }
        let states = try await mint.checkState(inputs.map { try $0.y() })
        #expect(states.allSatisfy { $0.state == .unspent })
    }

    @Test func theMintsOwnInvoiceCannotBeMeltedOncePaid() async throws {
        // The mint would settle its own invoice inside, without fees, but the FakeWallet pays
        // every invoice it makes by itself, and nutshell then refuses the melt quote.
        let invoice = try await rig.paid(try await mint.mintQuote(amount: 16, unit: "sat"))
        do {
            _ = try await mint.meltQuote(invoice: invoice.request, unit: "sat")
            Issue.record("a melt quote for a paid invoice")
        } catch {
            guard case .refused(_, let detail, 400) = error.kind else { throw error }
            #expect(detail.contains("already paid"))
        }
    }
}
