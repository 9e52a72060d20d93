/// What `CBOR.decode` accepts, and how much work untrusted input may ask of it.
public struct CBORDecodingOptions: Sendable {
    /// Reject non-shortest heads, indefinite lengths, unsorted map keys and non-shortest
    /// floats, so that every accepted input is exactly `decoded.encoded()`.
    /// (Duplicate map keys are rejected whatever this says.)
    public var requireDeterministic: Bool
    /// Longest whole input, in bytes.
    public var maxInputBytes: Int
    /// Deepest nesting of arrays, maps and tags: `1` and `[]` are depth 0 and 1,
    /// `[[1]]` and `2([])` are depth 2. Decoding recurses once per level, so this also bounds
    /// the stack.
    public var maxDepth: Int
    /// Most elements of one array, or pairs of one map.
    public var maxCollectionCount: Int
    /// Longest byte or text string (for indefinite-length strings, all chunks together).
    public var maxStringBytes: Int

    public init(
        requireDeterministic: Bool = true,
        maxInputBytes: Int = 1 << 20,
        maxDepth: Int = 32,
        maxCollectionCount: Int = 10_000,
        maxStringBytes: Int = 64 << 10
    ) {
        self.requireDeterministic = requireDeterministic
        self.maxInputBytes = maxInputBytes
        self.maxDepth = maxDepth
        self.maxCollectionCount = maxCollectionCount
        self.maxStringBytes = maxStringBytes
    }

    /// Strict: deterministic encoding only; 1 MiB input, depth 32, 10,000 items, 64 KiB strings.
    public static let deterministic = CBORDecodingOptions()

    /// Any well-formed CBOR (indefinite lengths, long heads, any key order), same limits.
    public static let lenient = CBORDecodingOptions(requireDeterministic: false)
}
