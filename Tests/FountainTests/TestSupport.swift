@testable import Fountain

/// Lower-case hex, no prefix.
func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef")
    var text = ""
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return text
}

/// BC-UR's `make_message(len, seed)`: `len` bytes of `Xoshiro256(seed).nextData`.
func makeMessage(_ length: Int, seed: String = "Wolf") -> [UInt8] {
    var rng = Xoshiro256(string: seed)
    return rng.nextData(length)
}

/// BC-UR's `make_message_ur(len)`: the message as a CBOR byte string, type "bytes".
func makeMessageUR(_ length: Int, seed: String = "Wolf") throws -> UR {
    try UR(type: "bytes", cbor: cborByteString(makeMessage(length, seed: seed)))
}

/// The CBOR head of a byte string (major type 2, shortest form) and the bytes.
func cborByteString(_ bytes: [UInt8]) -> [UInt8] {
    let count = bytes.count
    var head: [UInt8]
    switch count {
    case 0..<24: head = [0x40 | UInt8(count)]
    case 24..<256: head = [0x58, UInt8(count)]
    case 256..<65_536: head = [0x59, UInt8(count >> 8), UInt8(count & 0xFF)]
    default:
        head = [
            0x5A, UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF),
            UInt8(count & 0xFF),
        ]
    }
    return head + bytes
}
/// Expects `body` to throw a `FountainError` of `kind`; returns it.
@discardableResult
func expectError<T>(
    _ kind: FountainError.Kind, _ body: () throws(FountainError) -> T
) -> FountainError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error.kind == kind ? error : nil
    }
}
