/// Offline verification (Docs/PROTOCOL.md): issuer signatures, transfer signatures, conservation,
/// expiry, hop cap, domain, and the seen-set. Pure: time and the seen-set are parameters.
public struct Verifier: Sendable {
    public let domain: Domain
    public let limits: VerificationLimits

    public init(domain: Domain, limits: VerificationLimits = .standard) {
        self.domain = domain
        self.limits = limits
    }

    /// Verifies `bundle` at time `now`. `seenSpends` maps coins this node has already seen
    /// consumed to the transfer that consumed them; a bundle that consumes one of them
    /// differently is a double spend, reported with its evidence.
    public func verify(
        _ bundle: ProofBundle, now: UInt64, seenSpends: [CoinID: SignedTransfer] = [:]
    ) throws(ProtocolError) -> VerifiedBundle {
        guard bundle.notes.count <= limits.maxNotes else {
            throw ProtocolError(
                .proofTooLarge("\(bundle.notes.count) notes, cap \(limits.maxNotes)"))
        }
        guard bundle.transfers.count <= limits.maxTransfers else {
            throw ProtocolError(
                .proofTooLarge("\(bundle.transfers.count) transfers, cap \(limits.maxTransfers)"))
        }
        var coins: [CoinID: Coin] = [:]
        coins.reserveCapacity(bundle.notes.count + bundle.transfers.count * 2)
        var order: [CoinID] = []
        var noteDigests: [Bytes32] = []
        noteDigests.reserveCapacity(bundle.notes.count)

        for (index, signed) in bundle.notes.enumerated() {
            let note = signed.note
            guard note.amount > 0 else {
                throw ProtocolError(.zeroNoteAmount(note: index))
            }
            let digest = note.digest(in: domain)
            let recovered = signer(of: digest, signature: signed.signature)
            guard recovered == note.issuer else {
                throw ProtocolError(
                    .badNoteSignature(
                        serial: note.serial, issuer: note.issuer, recovered: recovered))
            }
            noteDigests.append(digest)
            let id = coinID(digest: digest, index: 0)
            guard coins[id] == nil else { throw ProtocolError(.duplicateCoin(id)) }
            coins[id] = Coin(
                id: id, owner: note.owner, issuer: note.issuer, asset: note.asset,
                amount: note.amount, expiry: note.expiry, depth: 0, origin: .note(index))
            order.append(id)
        }

        var spentBy: [CoinID: Int] = [:]
        var digests: [Bytes32] = []
        digests.reserveCapacity(bundle.transfers.count)
        for (index, signed) in bundle.transfers.enumerated() {
            let (digest, created) = try verifyTransfer(
                signed, index: index, coins: coins, spentBy: spentBy, bundle: bundle,
                seenSpends: seenSpends)
            digests.append(digest)
            for input in signed.transfer.inputs { spentBy[input] = index }
            for coin in created {
                guard coins[coin.id] == nil else { throw ProtocolError(.duplicateCoin(coin.id)) }
                coins[coin.id] = coin
                order.append(coin.id)
            }
        }

        let leaves = order.compactMap { spentBy[$0] == nil ? coins[$0] : nil }
        for leaf in leaves where now >= leaf.expiry {
            throw ProtocolError(.expired(coin: leaf.id, expiry: leaf.expiry, now: now))
        }
        return VerifiedBundle(
            coins: coins, leaves: leaves, spentBy: spentBy, noteDigests: noteDigests,
            transferDigests: digests, bundle: bundle)
    }

    private func verifyTransfer(
        _ signed: SignedTransfer, index: Int, coins: [CoinID: Coin], spentBy: [CoinID: Int],
        bundle: ProofBundle, seenSpends: [CoinID: SignedTransfer]
    ) throws(ProtocolError) -> (Bytes32, [Coin]) {
        let transfer = signed.transfer
        guard !transfer.inputs.isEmpty, !transfer.outputs.isEmpty else {
            throw ProtocolError(.emptyTransfer(transfer: index))
        }
        guard transfer.inputs.count <= limits.maxInputsPerTransfer,
            transfer.outputs.count <= limits.maxOutputsPerTransfer
        else {
            throw ProtocolError(
                .proofTooLarge(
                    "transfer #\(index) has \(transfer.inputs.count) inputs and \(transfer.outputs.count) outputs (caps \(limits.maxInputsPerTransfer)/\(limits.maxOutputsPerTransfer))"
                ))
        }
        var inputs: [Coin] = []
        inputs.reserveCapacity(transfer.inputs.count)
        for input in transfer.inputs {
            guard let coin = coins[input] else {
                throw ProtocolError(.unknownInput(transfer: index, coin: input))
            }
            guard !inputs.contains(where: { $0.id == input }) else {
                throw ProtocolError(.duplicateInput(transfer: index, coin: input))
            }
            inputs.append(coin)
        }
        let first = inputs[0]
        for coin in inputs.dropFirst() {
            if coin.owner != first.owner {
                throw ProtocolError(.mixedInputs(transfer: index, field: "owner"))
            }
            if coin.issuer != first.issuer {
                throw ProtocolError(.mixedInputs(transfer: index, field: "issuer"))
            }
            if coin.asset != first.asset {
                throw ProtocolError(.mixedInputs(transfer: index, field: "asset"))
            }
        }

        let digest = transfer.digest(in: domain)
        let recovered = signer(of: digest, signature: signed.signature)
        guard recovered == first.owner else {
            throw ProtocolError(
                .badTransferSignature(transfer: index, owner: first.owner, recovered: recovered))
        }

        // A second, different spend of a coin by its (now proven) owner is a fraud proof.
        for input in transfer.inputs {
            if let earlier = spentBy[input] {
                throw ProtocolError(
                    .doubleSpend(
                        try DoubleSpendEvidence(
                            coin: input, bundle.transfers[earlier], signed, in: domain),
                        issuer: first.issuer))
            }
            // The same content has the same digest: compare it, no hashing.
            if let seen = seenSpends[input], seen.transfer != transfer {
                throw ProtocolError(
                    .doubleSpend(
                        try DoubleSpendEvidence(coin: input, seen, signed, in: domain),
                        issuer: first.issuer))
            }
        }

        for (outputIndex, output) in transfer.outputs.enumerated() where output.amount == 0 {
            throw ProtocolError(.zeroAmount(transfer: index, output: outputIndex))
        }
        guard let inputSum = checkedSum(inputs.lazy.map(\.amount)) else {
            throw ProtocolError(.amountOverflow("inputs of transfer #\(index)"))
        }
        guard let outputSum = checkedSum(transfer.outputs.lazy.map(\.amount)) else {
            throw ProtocolError(.amountOverflow("outputs of transfer #\(index)"))
        }
        guard inputSum == outputSum else {
            throw ProtocolError(
                .conservationBroken(
                    transfer: index, asset: first.asset, inputs: inputSum, outputs: outputSum))
        }

        let depth = 1 + inputs.lazy.map(\.depth).max()!
        let expiry = inputs.lazy.map(\.expiry).min()!
        let ids = signed.outputCoins(digest: digest)
        if depth > limits.maxHops {
            throw ProtocolError(.hopCapExceeded(coin: ids[0], depth: depth, cap: limits.maxHops))
        }
        let created = transfer.outputs.enumerated().map { outputIndex, output in
            Coin(
                id: ids[outputIndex], owner: output.owner, issuer: first.issuer, asset: first.asset,
                amount: output.amount, expiry: expiry, depth: depth,
                origin: .transfer(index, output: outputIndex))
        }
        return (digest, created)
    }
}
