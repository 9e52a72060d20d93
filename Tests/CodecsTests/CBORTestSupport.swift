import Codecs

// Short builders for CBOR fixtures.
func u(_ value: UInt64) -> CBOR { .unsigned(value) }
func t(_ value: String) -> CBOR { .text(value) }
func array(_ items: CBOR...) -> CBOR { .array(items) }
func map(_ pairs: (CBOR, CBOR)...) -> CBOR { .map(pairs.map { CBOR.Entry($0.0, $0.1) }) }

/// `value` with every map's entries in deterministic order, as a decoder returns them.
func sortedMaps(_ value: CBOR) -> CBOR {
    switch value {
    case .array(let items):
        return .array(items.map(sortedMaps))
    case .map(let entries):
        let sorted = entries.map { CBOR.Entry(sortedMaps($0.key), sortedMaps($0.value)) }
        return .map(sorted.sorted { $0.key.encoded().lexicographicallyPrecedes($1.key.encoded()) })
    case .tagged(let tag, let content):
        return .tagged(tag, sortedMaps(content))
    default:
        return value
    }
}

/// The error `CBOR.decode` throws for `bytes`, or nil when it accepts them.
func decodeError(_ bytes: [UInt8], _ options: CBORDecodingOptions = .deterministic) -> CBORError? {
    do {
        _ = try CBOR.decode(bytes, options: options)
        return nil
    } catch {
        return error
    }
}
