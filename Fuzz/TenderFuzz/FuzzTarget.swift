/// One fuzz target: a decoder of untrusted bytes and the invariants its results must keep.
struct FuzzTarget: Sendable {
    /// The name `TENDER_FUZZ_TARGET`, `Scripts/fuzz.sh` and the regression runner use.
    let name: String
    /// What the target feeds and checks, for `--list`.
    let summary: String
    /// Runs one input. Refusals are fine; a broken invariant traps (a finding).
    let run: @Sendable ([UInt8]) -> Void
    /// Inputs over the decoder's size cap, which libFuzzer is not asked to generate: each
    /// must be refused without allocating more than the cap. Run once per process.
    let oversizeCheck: @Sendable () -> Void
    /// Inputs the target makes itself (signed with its own keys), written out as seeds by
    /// `TenderFuzz --seeds <target> DIR`.
    let seeds: @Sendable () -> [[UInt8]]

    init(
        name: String, summary: String, run: @escaping @Sendable ([UInt8]) -> Void,
        oversizeCheck: @escaping @Sendable () -> Void = {},
        seeds: @escaping @Sendable () -> [[UInt8]] = { [] }
    ) {
        self.name = name
        self.summary = summary
        self.run = run
        self.oversizeCheck = oversizeCheck
        self.seeds = seeds
    }
}

/// Traps when an invariant does not hold: libFuzzer reports the crash and saves the input.
func require(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() { fatalError("fuzz invariant broken: \(message())", file: file, line: line) }
}

func hexPrefix(_ bytes: some Collection<UInt8>, limit: Int = 64) -> String {
    let digits = bytes.prefix(limit).map { byte in
        let text = String(byte, radix: 16)
        return byte < 16 ? "0" + text : text
    }
    return digits.joined() + (bytes.count > limit ? "…" : "")
}
