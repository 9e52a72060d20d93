/// Walker's alias method (after Keith Schwarz's description), with BC-UR's choices: indices
/// are pushed in reverse order, and each sample draws two doubles (column, then coin).
struct RandomSampler: Sendable {
    private let probabilities: [Double]
    private let aliases: [Int]

    /// `weights` must be non-negative with a positive sum.
    init(weights: [Double]) {
        precondition(!weights.isEmpty && weights.allSatisfy { $0 >= 0 })
        let sum = weights.reduce(0.0, +)
        precondition(sum > 0)
        let n = weights.count
        var scaled = weights.map { $0 * Double(n) / sum }
        var small: [Int] = []
        var large: [Int] = []
        for index in stride(from: n - 1, through: 0, by: -1) {
            if scaled[index] < 1 { small.append(index) } else { large.append(index) }
        }
        var probabilities = [Double](repeating: 0, count: n)
        var aliases = [Int](repeating: 0, count: n)
        while let lesser = small.last, let greater = large.last {
            small.removeLast()
            large.removeLast()
            probabilities[lesser] = scaled[lesser]
            aliases[lesser] = greater
            scaled[greater] += scaled[lesser] - 1
            if scaled[greater] < 1 { small.append(greater) } else { large.append(greater) }
        }
        // Whatever is left has probability 1 (for `small`, only through rounding).
        for index in large { probabilities[index] = 1 }
        for index in small { probabilities[index] = 1 }
        self.probabilities = probabilities
        self.aliases = aliases
    }

    func next(using rng: inout Xoshiro256) -> Int {
        let column = rng.nextDouble()
        let coin = rng.nextDouble()
        let n = probabilities.count
        let index = min(Int(Double(n) * column), n - 1)
        return coin < probabilities[index] ? index : aliases[index]
    }
}
