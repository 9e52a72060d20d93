#include "CZXing.h"
#include "FinderGuard.hpp"
#define ZX_USE_UTF8 1  // silences 1.4's #pragma message about text(), which is not used here
#include <ZXing/ReadBarcode.h>
#include <ZXing/ZXVersion.h>
#include <climits>
#include <vector>

struct tzx_codes {
    std::vector<ZXing::ByteArray> payloads;
};

extern "C" int tzx_read_qr(const uint8_t *pixels, int width, int height, int rowStride,
                           tzx_binarizer binarizer, int tryHarder, tzx_codes **codes) {
    *codes = nullptr;
    int stride = rowStride == 0 ? width : rowStride;
    if (!pixels || width <= 0 || height <= 0 || stride < width || height > INT_MAX / stride)
        return -1;
    try {
        // More finder candidates than any real frame shows (dense codes and heavy noise stay
        // under 60): a crafted frame that would keep zxing busy for seconds; left to zbar.
        if (tzx::finderCandidates(pixels, width, height, stride, TZX_FINDER_CANDIDATE_LIMIT) >
            TZX_FINDER_CANDIDATE_LIMIT)
            return -2;
        auto hints = ZXing::DecodeHints()
                         .setFormats(ZXing::BarcodeFormat::QRCode)
                         .setTryHarder(tryHarder != 0)
                         .setTryRotate(false)     // rotation is for 1D codes; QR reads any way up
                         .setTryDownscale(false)  // frames are camera-sized; the pipeline halves
                         .setBinarizer(binarizer == TZX_BINARIZER_GLOBAL_HISTOGRAM
                                           ? ZXing::Binarizer::GlobalHistogram
                                           : ZXing::Binarizer::LocalAverage);
        ZXing::ImageView image(pixels, width, height, ZXing::ImageFormat::Lum, stride);
        std::vector<ZXing::ByteArray> payloads;
        for (auto &result : ZXing::ReadBarcodes(image, hints))
            if (result.isValid()) payloads.push_back(result.bytes());
        if (payloads.empty()) return 0;
        if (payloads.size() > size_t(INT_MAX)) payloads.resize(size_t(INT_MAX));
        *codes = new tzx_codes{std::move(payloads)};
        return int((*codes)->payloads.size());
    } catch (...) {  // std::bad_alloc or anything else must not unwind into Swift
        return -1;
    }
}

extern "C" const uint8_t *tzx_codes_bytes(const tzx_codes *codes, int index, size_t *count) {
    *count = 0;
    if (!codes || index < 0 || size_t(index) >= codes->payloads.size()) return nullptr;
    const auto &bytes = codes->payloads[size_t(index)];
    *count = bytes.size();
    return bytes.data();
}

extern "C" void tzx_codes_free(tzx_codes *codes) { delete codes; }

extern "C" int tzx_version(void) {
    return ZXING_VERSION_MAJOR * 10000 + ZXING_VERSION_MINOR * 100 + ZXING_VERSION_PATCH;
}
