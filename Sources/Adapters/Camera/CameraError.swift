/// Why a frame source failed. Messages name the device or stream and what to do.
public struct CameraError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case noDevice
        case permissionDenied
        case notAVideoDevice
        case openFailed
        /// The camera stopped delivering frames (unplugged, or the driver went away).
        case vanished
        /// A raw stream ended inside a frame, or its frame size is impossible.
        case badStream
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
