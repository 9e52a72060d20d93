/// A CBOR data item (RFC 8949), with a deterministic encoder (§4.2.1) and a strict decoder.
///
/// Rules:
/// - `encoded()` always writes the deterministic form: shortest heads, definite lengths, map
///   keys sorted by the bytewise order of their encodings, floats in the shortest width that
///   keeps the value (every NaN as `f97e00`).
/// - `decode` takes untrusted bytes. It checks every declared length against the remaining
///   input and the limits in `CBORDecodingOptions` before allocating, bounds nesting, rejects
///   duplicate map keys in every mode, and by default also rejects anything non-deterministic,
///   so that an accepted input re-encodes to the same bytes.
/// - Tags stay tags: a bignum is `.tagged(2, .bytes(…))`; no tag is interpreted.
/// - Equality is that of CBOR data items, not of Swift values: text compares by its UTF-8
///   bytes (not Unicode canonical equivalence), floats by bit pattern with all NaNs equal (so
///   0.0 ≠ -0.0, as their encodings differ). Maps compare entry by entry in the order held.
public indirect enum CBOR: Sendable {
    case unsigned(UInt64)
    /// The value -1 - n.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// Entries in the order given; encoding sorts them. Duplicate keys are written as given,
    /// which no decoder should accept: don't build maps with duplicate keys.
    case map([CBOR.Entry])
    case tagged(UInt64, CBOR)
    /// Simple values other than false/true/null/undefined: 0...19 and 32...255.
    /// 20...23 encode as false/true/null/undefined; 24...31 have no valid encoding and trap.
    case simple(UInt8)
    case boolean(Bool)
    case null
    case undefined
    /// Encoded in the shortest of half/single/double that keeps the value (NaN as f97e00).
    case float(Double)

    /// One key/value pair of a map.
    public struct Entry: Hashable, Sendable {
        public var key: CBOR
        public var value: CBOR

        public init(_ key: CBOR, _ value: CBOR) {
            self.key = key
            self.value = value
        }
    }
}
