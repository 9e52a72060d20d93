/// How much of the symbol is spent on error correction: more recovers more damage and holds
/// fewer bytes. M is the usual choice for screens and paper.
public enum QRErrorCorrection: Sendable, CaseIterable, CustomStringConvertible {
    /// Recovers about 7% damage.
    case low
    /// Recovers about 15% damage.
    case medium
    /// Recovers about 25% damage.
    case quartile
    /// Recovers about 30% damage.
    case high

    /// Largest binary (8-bit mode) payload one code (version 40) holds at this level.
    public var binaryCapacity: Int {
        switch self {
        case .low: 2953
        case .medium: 2331
        case .quartile: 1663
        case .high: 1273
        }
    }

    public var description: String {
        switch self {
        case .low: "L"
        case .medium: "M"
        case .quartile: "Q"
        case .high: "H"
        }
    }
}
