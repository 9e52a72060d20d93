/// The coins a bundle's verification has found so far: by id, in bundle order, which are spent
/// and by which transfer. Each coin is moved in once, not copied in and out of a list of new
/// coins (a `Coin` holds four reference-counted arrays; verification is on the hot path).
/// A table that threw is thrown away: `add` may have replaced a coin or noted a place before
/// it found the duplicate.
struct CoinTable {
    private(set) var coins: [CoinID: Coin] = [:]
    private(set) var spentBy: [CoinID: Int] = [:]
    /// Every coin's id in bundle order, and whether a transfer spends it: the leaves are found
    /// without a lookup in `spentBy`.
    private var order: [CoinID] = []
    private var spent: [Bool] = []
    /// By transfer: the place of its first output in `order`. A coin's place follows from
    /// its origin.
    private var firstPlace: [Int] = []

    init(capacity: Int, transfers: Int) {
        coins.reserveCapacity(capacity)
        order.reserveCapacity(capacity)
        spent.reserveCapacity(capacity)
        firstPlace.reserveCapacity(transfers)
    }

    subscript(id: CoinID) -> Coin? { coins[id] }

    /// Adds `coin`; a coin already there with its id is a duplicate (nothing is replaced that
    /// verification goes on with: it throws).
    mutating func add(_ coin: consuming Coin) throws(ProtocolError) {
        let id = coin.id
        if case .transfer(_, output: 0) = coin.origin { firstPlace.append(order.count) }
        guard coins.updateValue(coin, forKey: id) == nil else {
            throw ProtocolError(.duplicateCoin(id))
        }
        order.append(id)
        spent.append(false)
    }

    /// Transfer `index` spends `coin` (a coin of the table).
    mutating func spend(_ coin: Coin, by index: Int) {
        spentBy[coin.id] = index
        switch coin.origin {
        case .note(let note): spent[note] = true
        case .transfer(let transfer, let output): spent[firstPlace[transfer] + output] = true
        }
    }

    /// The coins no transfer spends, in bundle order.
    var leaves: [Coin] { order.indices.compactMap { spent[$0] ? nil : coins[order[$0]] } }
}
