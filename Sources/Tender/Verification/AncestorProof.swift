extension VerifiedBundle {
    /// The smallest sub-bundle proving `coin`: its note or transfer and their ancestors,
    /// in the bundle's order. This is what a wallet stores beside the coin to spend it later.
    public func proof(of coin: CoinID) -> ProofBundle? {
        guard let start = coins[coin] else { return nil }
        var noteIndices = Set<Int>()
        var transferIndices = Set<Int>()
        var pending: [Coin.Origin] = [start.origin]
        while let origin = pending.popLast() {
            switch origin {
            case .note(let index):
                noteIndices.insert(index)
            case .transfer(let index, _):
                guard transferIndices.insert(index).inserted else { continue }
                for input in bundle.transfers[index].transfer.inputs {
                    if let parent = coins[input] { pending.append(parent.origin) }
                }
            }
        }
        return ProofBundle(
            notes: noteIndices.sorted().map { bundle.notes[$0] },
            transfers: transferIndices.sorted().map { bundle.transfers[$0] })
    }
}
