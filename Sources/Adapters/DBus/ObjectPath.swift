/// A D-Bus object path: `/` or `/` followed by elements of `[A-Za-z0-9_]`, separated by single
/// slashes, no trailing slash. Checked when made, so libdbus never sees an invalid one (it
/// aborts the process on invalid paths).
public struct ObjectPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: String

    /// Nil when `rawValue` is not a valid object path.
    public init?(_ rawValue: String) {
        guard ObjectPath.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// For paths written in the source, known to be valid.
    public init(checked rawValue: String) {
        precondition(ObjectPath.isValid(rawValue), "invalid object path \(rawValue)")
        self.rawValue = rawValue
    }

    public static let root = ObjectPath(checked: "/")

    public var description: String { rawValue }

    /// This path with `element` appended; nil when `element` is not a valid element.
    public func appending(_ element: String) -> ObjectPath? {
        ObjectPath(rawValue == "/" ? "/" + element : rawValue + "/" + element)
    }

    /// True when `self` is `ancestor` or lies below it.
    public func isDescendant(of ancestor: ObjectPath) -> Bool {
        ancestor.rawValue == "/" || rawValue == ancestor.rawValue
            || rawValue.hasPrefix(ancestor.rawValue + "/")
    }

    public static func < (lhs: ObjectPath, rhs: ObjectPath) -> Bool { lhs.rawValue < rhs.rawValue }

    static func isValid(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count == 1 { return true }
        guard bytes.last != UInt8(ascii: "/") else { return false }
        var previousWasSlash = false
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                if previousWasSlash { return false }
                previousWasSlash = true
                continue
            }
            previousWasSlash = false
            let isElementByte =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_")
            if !isElementByte { return false }
        }
        return true
    }
}
