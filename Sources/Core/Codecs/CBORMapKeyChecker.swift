/// Rejects duplicate map keys in every mode, and out-of-order keys in deterministic mode.
struct MapKeyChecker {
    let deterministic: Bool
    /// Deterministic mode: the previous key's bytes, which are already canonical.
    private var previous: ArraySlice<UInt8>?
    /// Lenient mode: canonical encodings of the keys seen, so `01` and `18 01` collide.
    private var seen: Set<[UInt8]> = []

    init(deterministic: Bool) {
        self.deterministic = deterministic
    }

    mutating func add(
        _ key: CBOR, encoding: ArraySlice<UInt8>, at offset: Int
    ) throws(CBORError) {
        if deterministic {
            if let previous {
                if previous.elementsEqual(encoding) {
                    throw CBORError(kind: .duplicateMapKey, offset: offset)
                }
                guard previous.lexicographicallyPrecedes(encoding) else {
                    throw CBORError(kind: .unsortedMapKeys, offset: offset)
                }
            }
            previous = encoding
        } else if !seen.insert(key.encoded()).inserted {
            throw CBORError(kind: .duplicateMapKey, offset: offset)
        }
    }
}
