import CZBar

/// Finds and decodes every QR code in a greyscale frame through libzbar. The only file of
/// the module that calls libzbar.
///
/// One owner: a scanner holds a `zbar_image_scanner_t*`, which zbar mutates on every scan,
/// so it is deliberately not `Sendable`. Give each task or thread its own scanner.
public final class QRScanner {
    private let handle: OpaquePointer

    /// Creates a zbar image scanner with every symbology off except QR, and binary mode on
    /// (`ZBAR_CFG_BINARY`) so payloads come back byte for byte instead of being transcoded
    /// from a guessed text encoding.
    public init() {
        // zbar_image_scanner_create only fails when calloc does; Swift traps on OOM too.
        guard let handle = zbar_image_scanner_create() else {
            fatalError("zbar_image_scanner_create failed: out of memory")
        }
        self.handle = handle
        zbar_image_scanner_set_config(handle, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        zbar_image_scanner_set_config(handle, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
        zbar_image_scanner_set_config(handle, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1)
    }

    deinit { zbar_image_scanner_destroy(handle) }

    /// Every QR payload zbar decodes in `image`, in zbar's order; `[]` when there is none.
    ///
    /// Calls `zbar_scan_image` on a `Y800` (8-bit grey) zbar image that borrows the pixels;
    /// the borrow lasts until the zbar image is destroyed, inside this call.
    public func scan(_ image: GreyImage) -> [[UInt8]] {
        guard let zimage = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(zimage) }
        zbar_image_set_format(zimage, Self.y800)
        zbar_image_set_size(zimage, UInt32(image.width), UInt32(image.height))
        return image.pixels.withUnsafeBufferPointer { buffer -> [[UInt8]] in
            // No cleanup handler: zbar must not free Swift's buffer; it only borrows it
            // while this closure keeps the array alive.
            zbar_image_set_data(zimage, buffer.baseAddress, UInt(buffer.count), nil)
            defer { zbar_image_set_data(zimage, nil, 0, nil) }
            guard zbar_scan_image(handle, zimage) > 0 else { return [] }
            var payloads: [[UInt8]] = []
            var symbol = zbar_image_first_symbol(zimage)
            while let current = symbol {
                if zbar_symbol_get_type(current) == ZBAR_QRCODE {
                    let count = Int(zbar_symbol_get_data_length(current))
                    let bytes = zbar_symbol_get_data(current).map { data in
                        UnsafeRawBufferPointer(start: data, count: count).map { $0 }
                    }
                    payloads.append(bytes ?? [])
                }
                symbol = zbar_symbol_next(current)
            }
            return payloads
        }
    }

    /// zbar's fourcc for 8-bit grey; `zbar_fourcc` is a macro Swift cannot import.
    private static let y800: UInt = 0x3030_3859
}
