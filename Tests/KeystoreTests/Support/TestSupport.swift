import Codecs
import Foundation
import Secp256k1
import TenderTestSupport

@testable import Keystore

/// Hex to bytes for literals in tests (the vectors are known-good hex).
func bytes(_ hex: String) -> [UInt8] {
    try! Hex.decode(hex)
}

func hex(_ bytes: some Sequence<UInt8>) -> String {
    Hex.encode(bytes, prefix: false)
}

func secretBytes(_ key: PrivateKey) -> [UInt8] {
    key.withUnsafeBytes { Array($0) }
}

/// The Ethereum address as everyone spells it, lowercase: keccak256(X ‖ Y), last 20 bytes.
/// Computed here independently of `keyFileAddress` so the tests check the module's version.
func ethereumAddress(_ key: PublicKey) -> String {
    "0x" + hex(Keccak256.hash(key.coordinates).suffix(20))
}
/// A fresh directory under the system's temporary directory, removed by `body`'s end.
func withTemporaryDirectory<R>(_ body: (String) throws -> R) throws -> R {
    let directory = try TemporaryDirectory("keystore-tests")
    defer { directory.remove() }
    return try body(directory.path)
}

/// Runs `body` and returns the `KeystoreError` it threw (nil when it threw none or another
/// error, which the caller's `kind` check then reports).
func keystoreError(_ body: () throws -> Void) -> KeystoreError? {
    do {
        try body()
        return nil
    } catch {
        return error as? KeystoreError
    }
}
