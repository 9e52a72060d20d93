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
        var table = CoinTable(
            capacity: bundle.notes.count + bundle.transfers.count * 2,
            transfers: bundle.transfers.count)
        let hashes = BundleHashes(bundle, domain: domain, limits: limits)

        for (index, signed) in bundle.notes.enumerated() {
            let note = signed.note
            guard note.amount > 0 else {
                throw ProtocolError(.zeroNoteAmount(note: index))
            }
            guard hashes.isNote(index, signedBy: note.issuer) else {
                throw ProtocolError(
                    .badNoteSignature(
                        serial: note.serial, issuer: note.issuer,
                        recovered: hashes.noteSigner(index)))
            }
            try table.add(
                Coin(
                    id: hashes.noteCoin(index), owner: note.owner, issuer: note.issuer,
                    asset: note.asset, amount: note.amount, expiry: note.expiry, depth: 0,
                    origin: .note(index)))
        }

        var digests: [Bytes32] = []
        digests.reserveCapacity(bundle.transfers.count)
        for (index, signed) in bundle.transfers.enumerated() {
            digests.append(
                try verifyTransfer(
                    signed, index: index, table: &table, bundle: bundle, seenSpends: seenSpends,
                    hashes: hashes))
        }

        let leaves = table.leaves
        for leaf in leaves where now >= leaf.expiry {
            throw ProtocolError(.expired(coin: leaf.id, expiry: leaf.expiry, now: now))
        }
        return VerifiedBundle(
            coins: table.coins, leaves: leaves, spentBy: table.spentBy,
            noteDigests: hashes.noteDigests, transferDigests: digests, bundle: bundle)
    }

    /// Checks transfer `index` against the coins found so far, then spends its inputs and adds
    /// the coins it creates; returns its digest.
    private func verifyTransfer(
        _ signed: SignedTransfer, index: Int, table: inout CoinTable, bundle: ProofBundle,
        seenSpends: [CoinID: SignedTransfer], hashes: BundleHashes
    ) throws(ProtocolError) -> Bytes32 {
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
            guard let coin = table[input] else {
                throw ProtocolError(.unknownInput(transfer: index, coin: input))
            }
            guard !inputs.contains(where: { $0.id == input }) else {
                throw ProtocolError(.duplicateInput(transfer: index, coin: input))
            }
            inputs.append(coin)
        }
        let (owner, issuer, asset) = (inputs[0].owner, inputs[0].issuer, inputs[0].asset)
        for coin in inputs.dropFirst() {
            if coin.owner != owner {
                throw ProtocolError(.mixedInputs(transfer: index, field: "owner"))
            }
            if coin.issuer != issuer {
                throw ProtocolError(.mixedInputs(transfer: index, field: "issuer"))
            }
            if coin.asset != asset {
                throw ProtocolError(.mixedInputs(transfer: index, field: "asset"))
            }
        }

        // Hashed with the rest of the bundle: this transfer is within the limits checked above.
        let digest = hashes.transferDigests[index]!
        guard hashes.isTransfer(index, signedBy: owner) else {
            throw ProtocolError(
                .badTransferSignature(
                    transfer: index, owner: owner, recovered: hashes.transferSigner(index)))
        }

        // A second, different spend of a coin by its (now proven) owner is a fraud proof.
        for input in transfer.inputs {
            if let earlier = table.spentBy[input] {
                throw ProtocolError(
                    .doubleSpend(
                        try DoubleSpendEvidence(
                            coin: input, bundle.transfers[earlier], signed, in: domain),
                        issuer: issuer))
            }
            // The same content has the same digest: compare it, no hashing.
            if !seenSpends.isEmpty, let seen = seenSpends[input], seen.transfer != transfer {
                throw ProtocolError(
                    .doubleSpend(
                        try DoubleSpendEvidence(coin: input, seen, signed, in: domain),
                        issuer: issuer))
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
                    transfer: index, asset: asset, inputs: inputSum, outputs: outputSum))
        }

        let depth = 1 + inputs.lazy.map(\.depth).max()!
        let expiry = inputs.lazy.map(\.expiry).min()!
        let ids = hashes.outputCoins(of: index)
        if depth > limits.maxHops {
            throw ProtocolError(
                .hopCapExceeded(coin: ids.first!, depth: depth, cap: limits.maxHops))
        }
        for coin in inputs { table.spend(coin, by: index) }
        for (outputIndex, (output, id)) in zip(transfer.outputs, ids).enumerated() {
            try table.add(
                Coin(
                    id: id, owner: output.owner, issuer: issuer, asset: asset,
                    amount: output.amount, expiry: expiry, depth: depth,
                    origin: .transfer(index, output: outputIndex)))
        }
        return digest
    }
}
