// Case accessors: nil when the item is of another kind, so callers can chain with `guard let`.
extension CBOR {
    public var unsignedValue: UInt64? {
        if case .unsigned(let value) = self { value } else { nil }
    }

    public var bytesValue: [UInt8]? {
        if case .bytes(let value) = self { value } else { nil }
    }

    public var textValue: String? {
        if case .text(let value) = self { value } else { nil }
    }

    public var arrayValue: [CBOR]? {
        if case .array(let value) = self { value } else { nil }
    }

    public var mapEntries: [CBOR.Entry]? {
        if case .map(let value) = self { value } else { nil }
    }

    /// The value of the first entry whose key equals `key`; nil if this is not a map or the key
    /// is absent. A linear scan: protocol maps are small.
    public subscript(key: CBOR) -> CBOR? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }
}
