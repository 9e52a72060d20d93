/// What `tender --version` says.
enum TenderVersion {
    /// The release; Scripts/package-deb.sh builds the package's version on it.
    static let number = "0.1.0"

    static var description: String { "tender \(number)" }
}
