import Codecs

/// What a mint says about itself (NUT-06): its name and software, and the NUTs it supports.
public struct MintInfo: Sendable, Hashable {
    /// One payment method and unit the mint mints or melts with (NUT-04, NUT-05 settings).
    public struct MethodSetting: Sendable, Hashable {
        public let method: String
        public let unit: String
        public let minAmount: UInt64?
        public let maxAmount: UInt64?
    }

    public let name: String?
    public let version: String?
    /// The optional NUTs the mint lists as supported, and 4 and 5 unless disabled. Mints do
    /// not list the mandatory ones (0–3, 6).
    public let supportedNUTs: Set<Int>
    /// Methods and units for minting (NUT-04), empty when minting is disabled.
    public let mintMethods: [MethodSetting]
    /// Methods and units for melting (NUT-05), empty when melting is disabled.
    public let meltMethods: [MethodSetting]

    /// GET /v1/info. Settings this client does not read are ignored, as NUT-06 asks; only
    /// those of NUT-04 and NUT-05 are read, so only theirs can be malformed.
    static func parse(_ json: JSON) throws(MalformedAnswer) -> MintInfo {
        let name = try json.optionalString("name", in: "info")
        let version = try json.optionalString("version", in: "info")
        var supported: Set<Int> = []
        var methods: [Int: [MethodSetting]] = [:]
        if let nuts = json.optional("nuts") {
            guard case .object(let entries) = nuts else {
                throw MalformedAnswer("info.nuts is not an object")
            }
            for (key, setting) in entries {
                guard let number = Int(key), number >= 0 else {
                    throw MalformedAnswer("info.nuts has a key '\(key)' that is not a NUT number")
                }
                let path = "info.nuts.\(key)"
                if number == 4 || number == 5, let list = setting.optional("methods") {
                    if case .bool(true)? = setting["disabled"] { continue }
                    guard let items = list.arrayValue else {
                        throw MalformedAnswer("\(path).methods is not a list")
                    }
                    methods[number] = try items.enumerated().map {
                        (index, item) throws(MalformedAnswer) in
                        try MethodSetting.parse(item, at: "\(path).methods[\(index)]")
                    }
                    supported.insert(number)
                    continue
                }
                switch setting.optional("supported") {
                case .bool(true)?: supported.insert(number)
                // NUT-17 lists what it supports instead of `true`.
                case .array(let items)? where !items.isEmpty: supported.insert(number)
                default: break
                }
            }
        }
        return MintInfo(
            name: name, version: version, supportedNUTs: supported,
            mintMethods: methods[4] ?? [], meltMethods: methods[5] ?? [])
    }
}

extension MintInfo.MethodSetting {
    static func parse(_ json: JSON, at path: String) throws(MalformedAnswer) -> Self {
        Self(
            method: try json.string("method", in: path), unit: try json.string("unit", in: path),
            minAmount: try json.optionalAmount("min_amount", in: path),
            maxAmount: try json.optionalAmount("max_amount", in: path))
    }
}
