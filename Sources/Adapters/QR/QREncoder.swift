import CQREncode

/// Bytes to a QR symbol through libqrencode, always in 8-bit (binary) mode so any byte,
/// including 0x00, survives. The only file of the module that calls libqrencode.
public enum QREncoder {
    /// Encodes `bytes` in one code at the smallest version that holds them.
    ///
    /// Calls `QRcode_encodeData` (not `QRcode_encodeString8bit`, which stops at the first
    /// zero byte). Throws `.payloadTooLarge` naming the size and the level's capacity, or
    /// `.encoderFailed` for an empty payload or if libqrencode fails otherwise.
    public static func encode(
        _ bytes: [UInt8], level: QRErrorCorrection = .medium
    ) throws(QRError) -> QRMatrix {
        // Checked here rather than read from errno: libqrencode reports over-capacity as
        // ERANGE, but errno is too easy to clobber to be the only witness.
        guard bytes.count <= level.binaryCapacity else {
            throw QRError(
                .payloadTooLarge,
                "payload of \(bytes.count) bytes exceeds the \(level.binaryCapacity)-byte binary "
                    + "capacity of one QR code at level \(level)")
        }
        // libqrencode rejects empty input with EINVAL; say so plainly instead.
        guard !bytes.isEmpty else {
            throw QRError(
                .encoderFailed,
                "an empty payload cannot be encoded: a QR code needs at least one byte")
        }
        let code = bytes.withUnsafeBufferPointer {
            QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, level.cLevel)
        }
        guard let code else {
            throw QRError(
                .encoderFailed,
                "libqrencode could not encode \(bytes.count) bytes at level \(level)")
        }
        return matrix(code)
    }

    /// Encodes text in the densest mix of modes libqrencode finds (numeric, alphanumeric,
    /// 8-bit segments): uppercase text such as a BC-UR part takes 5.5 bits a character instead
    /// of 8. The scanner returns the same text. Text with a NUL goes through `encode(_:)`.
    public static func encode(
        segmentedText text: String, level: QRErrorCorrection = .medium
    ) throws(QRError) -> QRMatrix {
        guard !text.isEmpty, !text.utf8.contains(0) else {
            return try encode(Array(text.utf8), level: level)
        }
        guard let code = QRcode_encodeString(text, 0, level.cLevel, QR_MODE_8, 1) else {
            throw QRError(
                .payloadTooLarge,
                "\(text.utf8.count) characters of text do not fit one QR code at level \(level)")
        }
        return matrix(code)
    }

    /// Copies libqrencode's symbol into a `QRMatrix` and frees it.
    private static func matrix(_ code: UnsafeMutablePointer<QRcode>) -> QRMatrix {
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        // Each byte carries flags for libqrencode's own use; bit 0 alone means dark.
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        return QRMatrix(size: width, modules: data.map { $0 & 1 == 1 })
    }

    /// Encodes the UTF-8 bytes of `text` in binary mode (see `encode(_:level:)`).
    public static func encode(
        text: String, level: QRErrorCorrection = .medium
    ) throws(QRError) -> QRMatrix {
        try encode(Array(text.utf8), level: level)
    }
}

extension QRErrorCorrection {
    fileprivate var cLevel: QRecLevel {
        switch self {
        case .low: QR_ECLEVEL_L
        case .medium: QR_ECLEVEL_M
        case .quartile: QR_ECLEVEL_Q
        case .high: QR_ECLEVEL_H
        }
    }
}
