import Codecs

/// Bytes from a hex fixture; spaces allowed for readability. Traps on a malformed fixture.
func h(_ text: String) -> [UInt8] {
    do {
        return try Hex.decode(text.filter { !$0.isWhitespace })
    } catch {
        fatalError("bad hex fixture \(text): \(error)")
    }
}

/// Lowercase hex without prefix, for comparing against fixtures.
func hex(_ bytes: some Sequence<UInt8>) -> String {
    Hex.encode(bytes, prefix: false)
}
