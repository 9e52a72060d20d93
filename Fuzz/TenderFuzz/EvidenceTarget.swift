import Secp256k1
import Tender

/// Double-spend evidence, as a peer gossips it or a file brings it (`tender evidence import`).
enum EvidenceTarget {
    static let evidence = FuzzTarget(
        name: "evidence",
        summary:
            "evidence envelopes decoded and verified; what verifies is a true double spend; an altered genuine one is refused",
        run: check, seeds: { [[0x00] + genuine, [0x01], [0x01, 0x00, 0x00, 0x05, 0xFF]] })

    static let domain = Domain(
        chainID: 31337, vault: try! Address(String(repeating: "5a", count: 20)))

    /// A genuine proof: one note's coin spent by two transfers its owner signed.
    static let genuine: [UInt8] = {
        let owner = try! PrivateKey(bytes: [UInt8](repeating: 0x11, count: 32))
        let issuer = try! PrivateKey(bytes: [UInt8](repeating: 0x22, count: 32))
        let payee = Address(
            publicKey: try! PrivateKey(bytes: [UInt8](repeating: 0x33, count: 32)).publicKey)
        let note = try! SignedNote(
            signing: Note(
                serial: try! Bytes32([UInt8](repeating: 0x44, count: 32)),
                issuer: Address(publicKey: issuer.publicKey), asset: .zero, amount: 100,
                owner: Address(publicKey: owner.publicKey), expiry: 4_000_000_000),
            with: issuer, in: domain)
        let coin = note.coinID(in: domain)
        let spends = [60, 70].map { amount in
            try! SignedTransfer(
                signing: Transfer(
                    inputs: [coin],
                    outputs: [
                        Output(owner: payee, amount: Amount(amount)),
                        Output(
                            owner: Address(publicKey: owner.publicKey), amount: Amount(100 - amount)
                        ),
                    ]),
                with: owner, in: domain)
        }
        let evidence = try! DoubleSpendEvidence(coin: coin, spends[0], spends[1], in: domain)
        return Envelope(domain: domain, message: .evidence(evidence)).encoded()
    }()

    /// Byte 0 picks the mode. Even: the input is an envelope. Odd: the genuine proof, altered
    /// as the rest of the input says.
    static func check(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        if mode % 2 == 0 {
            if let evidence = verified(Array(bytes.dropFirst())) { requireTrue(evidence) }
            return
        }
        let (altered, changed) = Alterations(bytes.dropFirst(), messages: 1)
            .apply(to: genuine, index: 0)
        let evidence = verified(altered)
        require(
            changed ? evidence == nil : evidence != nil,
            changed
                ? "an altered proof was accepted: \(hexPrefix(altered))"
                : "the genuine proof was refused")
    }

    /// The evidence `bytes` hold, decoded strictly for `domain` and verified, or nil.
    static func verified(_ bytes: [UInt8]) -> DoubleSpendEvidence? {
        guard let envelope = try? Envelope.decode(bytes, expecting: domain),
            case .evidence(let evidence) = envelope.message,
            (try? evidence.verify(in: domain)) != nil
        else { return nil }
        return evidence
    }

    /// What verified evidence must be: two different transfers, both consuming the coin,
    /// both signed by its spender, in digest order.
    static func requireTrue(_ evidence: DoubleSpendEvidence) {
        let first = evidence.first.transfer.digest(in: domain)
        let second = evidence.second.transfer.digest(in: domain)
        require(first < second, "evidence transfers out of digest order (or the same)")
        for spend in [evidence.first, evidence.second] {
            require(
                spend.transfer.inputs.contains(evidence.coin), "a transfer does not spend the coin")
            require(spend.signer(in: domain) == evidence.spender, "a transfer is not the spender's")
        }
    }
}
