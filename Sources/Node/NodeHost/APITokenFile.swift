import Codecs
import Foundation
import NodeKit
import Posix
import Tender

/// The bearer token of the node's API: a file only the node's user may read (0600), made on
/// first start (32 random bytes, hex). A token file others can read is refused, as ssh
/// refuses such a key: whoever reads it can spend through the API.
public enum APITokenFile {
    /// Reads the token at `path`, or makes one there.
    public static func loadOrCreate(_ path: String) throws(NodeError) -> String {
        if let mode = try? DurableFile.permissions(path) {
            guard mode & 0o077 == 0 else {
                throw NodeError(
                    .permission(
                        "\(path) is readable by others (mode \(String(mode & 0o777, radix: 8))): chmod 600 \(path)"
                    ))
            }
            let token = String(
                decoding: try FileIO.read(path, limit: 4096, holding: .setting), as: UTF8.self
            )
            .trimmingCharacters(in: .whitespacesAndNewlines)
            guard token.utf8.count >= 32, token.allSatisfy({ $0.isASCII && !$0.isWhitespace })
            else {
                throw NodeError(
                    .usage("\(path) holds no usable token (32 or more printable ASCII characters)"))
            }
            return token
        }
        var generator = SystemRandomNumberGenerator()
        let token = Hex.encode(Bytes32.random(using: &generator).bytes, prefix: false)
        do {
            try DurableFile.write(
                Array((token + "\n").utf8), to: path, mode: 0o600, replacing: false)
        } catch {
            // Another node starting on this directory made it first: its token is the one.
            if error.code == EEXIST { return try loadOrCreate(path) }
            throw NodeError(.io("cannot write the API token \(path): \(error)"))
        }
        return token
    }
}
