import Codecs

/// What the mint says of one proof, named by its `Y` (NUT-07).
public struct ProofState: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        case unspent = "UNSPENT"
        /// Held by a transaction in flight (a melt waiting on Lightning).
        case pending = "PENDING"
        case spent = "SPENT"
    }

    /// `Y = hash_to_curve(secret)`, compressed (33 bytes).
    public let y: [UInt8]
    public let state: State
    /// The witness that spent it, for proofs with a spending condition (NUT-10, NUT-11).
    public let witness: String?

    /// `{"states": [{"Y", "state", "witness"?}]}`, one for each Y asked, in the same order.
    static func parseList(
        _ json: JSON, asked ys: [[UInt8]]
    ) throws(MalformedAnswer)
        -> [ProofState]
    {
        let list = try json.array("states", in: "answer")
        guard list.count == ys.count else {
            throw MalformedAnswer("states has \(list.count) entries for \(ys.count) Ys asked")
        }
        var states: [ProofState] = []
        for (index, (entry, asked)) in zip(list, ys).enumerated() {
            let path = "states[\(index)]"
            guard try entry.bytes("Y", in: path) == asked else {
                throw MalformedAnswer("\(path).Y is not the Y asked in that place")
            }
            let text = try entry.string("state", in: path)
            guard let state = State(rawValue: text) else {
                throw MalformedAnswer("\(path).state '\(text)' is not UNSPENT, PENDING or SPENT")
            }
            states.append(
                ProofState(
                    y: asked, state: state, witness: try entry.optionalString("witness", in: path))
            )
        }
        return states
    }
}
