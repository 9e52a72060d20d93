import Cashu
import Codecs

/// Spending and checking proofs: swap (NUT-03), state check (NUT-07), restore (NUT-09).
extension MintClient {
    /// POST /v1/swap: spends `inputs` for signatures on `outputs`, one per output, in order,
    /// each for the output's amount and keyset. Keep the outputs' secrets and blinding factors
    /// before calling: if the answer is lost, `restore` gives the signatures again.
    public func swap(
        inputs: [Proof], outputs: [BlindedMessage]
    ) async throws(MintError) -> [BlindSignature] {
        let body = try request("swap") { () throws(MalformedRequest) in
            JSON.object([
                ("inputs", try Wire.proofs(inputs, field: "inputs")),
                ("outputs", try Wire.outputs(outputs)),
            ])
        }
        let answer = try await postJSON("/v1/swap", body, "swap")
        return try reading("swap") { () throws(MalformedAnswer) in
            try BlindSignature.parse(signaturesFor: outputs, in: answer)
        }
    }

    /// POST /v1/checkstate: the state of each proof named by its `Y` (`Proof.y()`, 33 bytes),
    /// in the order asked.
    public func checkState(_ ys: [[UInt8]]) async throws(MintError) -> [ProofState] {
        guard !ys.isEmpty else { return [] }
        let body = try request("state check") { () throws(MalformedRequest) in
            for (index, y) in ys.enumerated() where y.count != 33 {
                throw MalformedRequest("Ys[\(index)] is \(y.count) bytes, not a 33-byte point")
            }
            return JSON.object([
                ("Ys", .array(ys.map { .string(Hex.encode($0, prefix: false)) }))
            ])
        }
        let answer = try await postJSON("/v1/checkstate", body, "state check")
        return try reading("state check") { () throws(MalformedAnswer) in
            try ProofState.parseList(answer, asked: ys)
        }
    }

    /// POST /v1/restore (NUT-09): the signatures the mint made on any of `outputs`, each with
    /// the output it signs, in the order of `outputs`, so a wallet that lost a swap's or
    /// mint's answer can still unblind it. Outputs the mint never signed are left out.
    public func restore(
        _ outputs: [BlindedMessage]
    ) async throws(MintError) -> [(BlindedMessage, BlindSignature)] {
        let body = try request("restore") { () throws(MalformedRequest) in
            JSON.object([("outputs", try Wire.outputs(outputs))])
        }
        let answer = try await postJSON("/v1/restore", body, "restore")
        return try reading("restore") { () throws(MalformedAnswer) in
            try Self.restored(answer, asked: outputs)
        }
    }

    /// NUT-09's answer: `outputs` and `signatures` of the same length, pair by pair; each
    /// output one that was asked (by `B_`), at most once, signed for its amount and keyset.
    /// Put back in the order asked (NUT-09 does not promise one).
    static func restored(
        _ answer: JSON, asked: [BlindedMessage]
    ) throws(MalformedAnswer) -> [(BlindedMessage, BlindSignature)] {
        let returned = try answer.array("outputs", in: "answer")
        let signatures = try answer.array("signatures", in: "answer")
        guard returned.count == signatures.count else {
            throw MalformedAnswer(
                "\(returned.count) outputs but \(signatures.count) signatures")
        }
        let position = Dictionary(
            asked.enumerated().map { ($1.blinded, $0) }, uniquingKeysWith: { first, _ in first })
        var found: [Int: BlindSignature] = [:]
        for (index, (entry, signatureEntry)) in zip(returned, signatures).enumerated() {
            let blinded = try entry.point("B_", in: "outputs[\(index)]")
            guard let place = position[blinded], found[place] == nil else {
                throw MalformedAnswer("outputs[\(index)].B_ is not an output asked, or repeated")
            }
            let output = asked[place]
            let signature = try BlindSignature.parse(signatureEntry, at: "signatures[\(index)]")
            guard signature.amount == output.amount, signature.keysetID == output.keysetID else {
                throw MalformedAnswer(
                    "signatures[\(index)] is not for the output's amount and keyset")
            }
            found[place] = signature
        }
        return found.sorted { $0.key < $1.key }.map { (asked[$0.key], $0.value) }
    }
}
