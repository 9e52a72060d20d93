import Foundation

/// Time as the protocol sees it: Unix seconds. Injected so tests can move it.
public protocol WallClock: Sendable {
    func now() -> UInt64
}

public struct SystemClock: WallClock {
    public init() {}
    public func now() -> UInt64 { UInt64(max(0, Date().timeIntervalSince1970)) }
}

public struct FixedClock: WallClock {
    public let seconds: UInt64
    public init(_ seconds: UInt64) { self.seconds = seconds }
    public func now() -> UInt64 { seconds }
}
