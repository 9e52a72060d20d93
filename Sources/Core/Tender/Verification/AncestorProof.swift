extension VerifiedBundle {
    /// Indices of the notes and transfers that `coins` descend from, their creators included.
    public func ancestry(of coins: some Sequence<CoinID>) -> (notes: Set<Int>, transfers: Set<Int>)
    {
        var noteIndices = Set<Int>()
        var transferIndices = Set<Int>()
        var pending = coins.compactMap { self.coins[$0]?.origin }
        while let origin = pending.popLast() {
            switch origin {
            case .note(let index):
                noteIndices.insert(index)
            case .transfer(let index, _):
                guard transferIndices.insert(index).inserted else { continue }
                for input in bundle.transfers[index].transfer.inputs {
                    if let parent = self.coins[input] { pending.append(parent.origin) }
                }
            }
        }
        return (noteIndices, transferIndices)
    }

    /// The smallest sub-bundle proving `coin`: its note or transfer and their ancestors,
    /// in the bundle's order.
    public func proof(of coin: CoinID) -> ProofBundle? {
        guard coins[coin] != nil else { return nil }
        let (notes, transfers) = ancestry(of: [coin])
        return ProofBundle(
            notes: notes.sorted().map { bundle.notes[$0] },
            transfers: transfers.sorted().map { bundle.transfers[$0] })
    }

    /// Who created `coin`: its note's issuer, or the owner of its transfer's inputs (the
    /// verified signer of that transfer).
    public func creator(of coin: Coin) -> Address {
        switch coin.origin {
        case .note(let index): return bundle.notes[index].note.issuer
        case .transfer(let index, _):
            let firstInput = bundle.transfers[index].transfer.inputs[0]
            return coins[firstInput]!.owner  // verification resolved every input
        }
    }
}
