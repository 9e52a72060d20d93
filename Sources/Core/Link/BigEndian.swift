/// Big-endian integers in and out of byte arrays; callers check lengths first.
enum BigEndian {
    static func append<Value: FixedWidthInteger & UnsignedInteger>(
        _ value: Value, to bytes: inout [UInt8]
    ) {
        var shift = Value.bitWidth
        while shift > 0 {
            shift -= 8
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }

    static func read<Value: FixedWidthInteger & UnsignedInteger>(
        _: Value.Type, from bytes: some RandomAccessCollection<UInt8>, at offset: Int
    ) -> Value {
        var value: Value = 0
        var position = bytes.index(bytes.startIndex, offsetBy: offset)
        for _ in 0..<(Value.bitWidth / 8) {
            value = value << 8 | Value(bytes[position])
            position = bytes.index(after: position)
        }
        return value
    }
}
