// QR decoding through zxing-cpp behind a C interface: no C++ type and no exception crosses it,
// so Swift imports it as plain C. zxing's own headers stay out of this one: ZXing/Error.h
// defines macros that break zbar.h's C++ half in any module that includes both.
#ifndef CZXING_H
#define CZXING_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/// How zxing-cpp turns grey levels into black and white (its `Binarizer`).
typedef enum {
    TZX_BINARIZER_LOCAL_AVERAGE = 0,    ///< zxing's default: a threshold per 8×8 block
    TZX_BINARIZER_GLOBAL_HISTOGRAM = 1, ///< one threshold per row from its histogram
} tzx_binarizer;

/// What one call found; owned by the caller, freed with tzx_codes_free.
typedef struct tzx_codes tzx_codes;

/// Finder-pattern candidates (counted once per 8×8 cell) above which a frame is not given to
/// zxing: its detector weighs every triple of them, so a frame tiled with finder-like squares
/// would keep one call busy for seconds to minutes. Real frames stay under 60.
#define TZX_FINDER_CANDIDATE_LIMIT 150

/// Reads the QR codes in an 8-bit grey image, `rowStride` bytes a row (0: packed, `width`).
/// The pixels are only borrowed during the call. Returns how many codes it decoded (>= 0) and
/// sets *codes (NULL when none); -1 with *codes NULL when the geometry is impossible or
/// zxing-cpp threw (out of memory); -2 when the frame shows more finder candidates than
/// TZX_FINDER_CANDIDATE_LIMIT (not read). Keeps no state between calls: threads may call it
/// at once.
int tzx_read_qr(const uint8_t *pixels, int width, int height, int rowStride,
                tzx_binarizer binarizer, int tryHarder, tzx_codes **codes);

/// The raw content of code `index` (zxing's `Result::bytes()`: the bytes of the code's data
/// segments, with no character set applied), or NULL with *count 0 for an index out of range.
const uint8_t *tzx_codes_bytes(const tzx_codes *codes, int index, size_t *count);

void tzx_codes_free(tzx_codes *codes);

/// The zxing-cpp version this shim was compiled against, as major * 10000 + minor * 100 + patch.
int tzx_version(void);

#ifdef __cplusplus
}
#endif
#endif
