import CBlueZ
import CDBus
import CQREncode
import CZBar
import CZXing
import Testing

/// Proves each system-library target compiles, links and calls into the real C library.
/// The adapters built on them (QR, Bluetooth) carry their own behavioural tests.
@Suite struct SystemLibrariesTests {
    @Test func qrencodeEncodesAndZbarDecodesTheSamePixels() throws {
        let payload: [UInt8] = Array("tender:link-check".utf8)
        let (pixels, side) = try Self.encoded(payload)
        let scanner = try #require(zbar_image_scanner_create())
        defer { zbar_image_scanner_destroy(scanner) }
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1)
        let image = try #require(zbar_image_create())
        defer { zbar_image_destroy(image) }
        let grey: UInt = 0x3030_3859  // fourcc "Y800"
        zbar_image_set_format(image, grey)
        zbar_image_set_size(image, UInt32(side), UInt32(side))
        let decoded: [UInt8] = pixels.withUnsafeBufferPointer { buffer in
            zbar_image_set_data(image, buffer.baseAddress, UInt(buffer.count), nil)
            guard zbar_scan_image(scanner, image) > 0, let symbol = zbar_image_first_symbol(image)
            else { return [] }
            let length = Int(zbar_symbol_get_data_length(symbol))
            return zbar_symbol_get_data(symbol).withMemoryRebound(to: UInt8.self, capacity: length)
            {
                Array(UnsafeBufferPointer(start: $0, count: length))
            }
        }
        #expect(decoded == payload)
    }

    /// `payload` encoded by libqrencode (level M) and drawn at 4 px a module with a 4-module
    /// quiet zone: grey pixels, and the side of the square.
    static func encoded(_ payload: [UInt8]) throws -> ([UInt8], Int) {
        let code = try #require(
            payload.withUnsafeBufferPointer {
                QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, QR_ECLEVEL_M)
            })
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let (scale, border) = (4, 4)
        let side = (width + 2 * border) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<width {
            for x in 0..<width where code.pointee.data[y * width + x] & 1 == 1 {
                for dy in 0..<scale {
                    for dx in 0..<scale {
                        pixels[((y + border) * scale + dy) * side + (x + border) * scale + dx] = 0
                    }
                }
            }
        }
        return (pixels, side)
    }

    /// The zxing-cpp shim: every byte value back through `Result::bytes()`, impossible geometry
    /// refused rather than read past, and the version Debian 12 ships.
    @Test func qrencodeEncodesAndZxingDecodesTheSamePixels() throws {
        let payload = (0...255).map { UInt8($0) }
        let (pixels, side) = try Self.encoded(payload)
        var codes: OpaquePointer?
        let found = tzx_read_qr(
            pixels, Int32(side), Int32(side), 0, TZX_BINARIZER_LOCAL_AVERAGE, 1, &codes)
        defer { tzx_codes_free(codes) }
        #expect(found == 1)
        var count = 0
        let bytes = try #require(tzx_codes_bytes(codes, 0, &count))
        #expect(Array(UnsafeBufferPointer(start: bytes, count: count)) == payload)
        #expect(tzx_codes_bytes(codes, 1, &count) == nil && count == 0)

        var none: OpaquePointer?
        #expect(tzx_read_qr(pixels, 0, Int32(side), 0, TZX_BINARIZER_LOCAL_AVERAGE, 1, &none) == -1)
        #expect(
            tzx_read_qr(
                pixels, Int32(side), Int32(side), Int32(side - 1), TZX_BINARIZER_LOCAL_AVERAGE, 1,
                &none) == -1)
        #expect(none == nil)
        #expect(tzx_version() >= 1_04_00)
    }

    /// A frame tiled with finder-like squares kept zxing 1.4 busy for seconds (3 px squares:
    /// 2.3 s a call; 1 px: minutes): the shim counts the candidates first and leaves such a
    /// frame unread (-2), while a real code beside a few of them still reads.
    @Test func aFrameTiledWithFinderPatternsIsNotGivenToZxing() throws {
        let (width, height) = (640, 480)
        func tiled(scale: Int, rows: Range<Int>) -> [UInt8] {
            var pixels = [UInt8](repeating: 255, count: width * height)
            let cell = 8 * scale
            for top in stride(from: rows.lowerBound, to: rows.upperBound - 7 * scale, by: cell) {
                for left in stride(from: 0, to: width - 7 * scale, by: cell) {
                    for y in 0..<(7 * scale) {
                        for x in 0..<(7 * scale)
                        where max(abs(y / scale - 3), abs(x / scale - 3)) != 2 {
                            pixels[(top + y) * width + left + x] = 0
                        }
                    }
                }
            }
            return pixels
        }
        var codes: OpaquePointer?
        for scale in 1...3 {
            let pixels = tiled(scale: scale, rows: 0..<height)
            #expect(
                tzx_read_qr(
                    pixels, Int32(width), Int32(height), 0, TZX_BINARIZER_LOCAL_AVERAGE, 1,
                    &codes) == -2, "\(scale) px squares")
            #expect(codes == nil)
        }
        // A code in the top left, one row of squares below it: read.
        let (code, side) = try Self.encoded(Array("beside the squares".utf8))
        var pixels = tiled(scale: 3, rows: (height - 30)..<height)
        for y in 0..<side { for x in 0..<side { pixels[y * width + x] = code[y * side + x] } }
        let found = tzx_read_qr(
            pixels, Int32(width), Int32(height), 0, TZX_BINARIZER_LOCAL_AVERAGE, 1, &codes)
        defer { tzx_codes_free(codes) }
        #expect(found == 1)
    }

    @Test func dbusBuildsAMethodCallMessage() throws {
        let message = try #require(
            dbus_message_new_method_call(
                "org.bluez", "/org/bluez/hci0", "org.freedesktop.DBus.Properties", "GetAll"))
        defer { dbus_message_unref(message) }
        #expect(dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL)
        #expect(String(cString: dbus_message_get_member(message)) == "GetAll")
        #expect(TENDER_DBUS_TYPE_STRING == Int32(UInt8(ascii: "s")))
    }

    @Test func bluezParsesAndPrintsAnAddress() {
        var address = bdaddr_t()
        #expect(str2ba("C0:FF:EE:00:11:22", &address) == 0)
        var text = [CChar](repeating: 0, count: 18)
        ba2str(&address, &text)
        #expect(String(cString: text) == "C0:FF:EE:00:11:22")
    }
}
