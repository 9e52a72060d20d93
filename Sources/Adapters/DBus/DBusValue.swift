/// One D-Bus value of any type BlueZ uses, with its signature. Containers carry the signature
/// of their elements so an empty array still has a type on the wire.
public indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(ObjectPath)
    case signature(String)
    case unixFD(UnixFD)
    /// `ay`, the common case (GATT values, service data), kept as bytes.
    case bytes([UInt8])
    /// `a<element>`; `element` is the signature of one element.
    case array(element: String, [DBusValue])
    /// `a{<key><value>}`, in the order given (D-Bus dictionaries are ordered on the wire).
    case dictionary(key: String, value: String, [DictionaryEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    /// The D-Bus type signature of this value.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }
}

public struct DictionaryEntry: Sendable, Hashable {
    public var key: DBusValue
    public var value: DBusValue

    public init(_ key: DBusValue, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}

// MARK: - Building values

extension DBusValue {
    /// `a{sv}`, the property bag of BlueZ and of org.freedesktop.DBus.Properties.
    public static func propertyMap(_ map: [String: DBusValue]) -> DBusValue {
        .dictionary(
            key: "s", value: "v",
            map.sorted { $0.key < $1.key }.map {
                DictionaryEntry(.string($0.key), .variant($0.value))
            })
    }

    /// `as`.
    public static func strings(_ strings: [String]) -> DBusValue {
        .array(element: "s", strings.map(DBusValue.string))
    }

    /// `ao`.
    public static func objectPaths(_ paths: [ObjectPath]) -> DBusValue {
        .array(element: "o", paths.map(DBusValue.objectPath))
    }
}

// MARK: - Reading values

extension DBusValue {
    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var string: String? {
        if case .string(let value) = unwrapped { return value }
        return nil
    }

    public var objectPath: ObjectPath? {
        if case .objectPath(let value) = unwrapped { return value }
        return nil
    }

    public var bool: Bool? {
        if case .boolean(let value) = unwrapped { return value }
        return nil
    }

    public var uint16: UInt16? {
        if case .uint16(let value) = unwrapped { return value }
        return nil
    }

    public var int16: Int16? {
        if case .int16(let value) = unwrapped { return value }
        return nil
    }

    public var uint32: UInt32? {
        if case .uint32(let value) = unwrapped { return value }
        return nil
    }

    public var byte: UInt8? {
        if case .byte(let value) = unwrapped { return value }
        return nil
    }

    public var unixFD: UnixFD? {
        if case .unixFD(let value) = unwrapped { return value }
        return nil
    }

    /// `ay` as bytes (also an `a` of `.byte` elements).
    public var bytes: [UInt8]? {
        switch unwrapped {
        case .bytes(let bytes): return bytes
        case .array("y", let elements): return elements.compactMap(\.byte)
        default: return nil
        }
    }

    /// The elements of any array.
    public var elements: [DBusValue]? {
        switch unwrapped {
        case .array(_, let elements): return elements
        case .bytes(let bytes): return bytes.map(DBusValue.byte)
        default: return nil
        }
    }

    public var strings: [String]? { elements?.compactMap(\.string) }

    /// A dictionary with string keys (`a{sv}`, `a{ss}`, ...); nil for other values.
    public var stringKeyed: [String: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var map: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.string else { return nil }
            map[key] = entry.value
        }
        return map
    }

    /// A dictionary with object-path keys (`a{oa{sa{sv}}}` of GetManagedObjects).
    public var pathKeyed: [ObjectPath: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var map: [ObjectPath: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.objectPath else { return nil }
            map[key] = entry.value
        }
        return map
    }

    /// A dictionary with unsigned 16-bit keys (`a{qv}`, manufacturer data).
    public var uint16Keyed: [UInt16: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var map: [UInt16: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.uint16 else { return nil }
            map[key] = entry.value
        }
        return map
    }
}
