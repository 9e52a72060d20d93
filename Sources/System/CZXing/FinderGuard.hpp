// A guard in front of zxing-cpp 1.4, whose QR detector weighs every triple of the finder
// patterns it finds: a frame tiled with hundreds of finder-like squares (a stranger's screen)
// keeps one call busy for seconds to minutes (1,200 squares: 27 s). This counts the finder
// candidates such a detector would weigh, cheaply, so the shim can leave a crafted frame to
// zbar instead.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace tzx {

/// Whether runs r[0..4] have a finder pattern's 1:1:3:1:1 proportions (each within half a
/// module; the centre within a module).
inline bool finderProportions(const int r[5]) {
    int total = r[0] + r[1] + r[2] + r[3] + r[4];
    if (total < 7) return false;
    static const int modules[5] = {1, 1, 3, 1, 1};
    for (int i = 0; i < 5; i++) {
        int slack = modules[i] == 3 ? 2 : 1;
        if (std::abs(r[i] * 7 - modules[i] * total) * 2 > total * slack) return false;
    }
    return true;
}

/// Finder candidates in an 8-bit grey image, counted once per 8×8 cell, up to `limit` + 1:
/// runs of 1:1:3:1:1 across a row whose centre column shows the same pattern at about the
/// same size. Pixels are made black or white against the mean of their 24×24 neighbourhood
/// (three 8×8 blocks a side), as zxing's local-average binarizer does. Every other row is
/// read across: a finder's 3-module centre is at least 3 rows tall, so each is still met.
inline int finderCandidates(const uint8_t *pixels, int width, int height, int stride, int limit) {
    const int blocksWide = (width + 7) / 8, blocksHigh = (height + 7) / 8;
    std::vector<int> blockMean((size_t)blocksWide * blocksHigh);
    for (int by = 0; by < blocksHigh; by++)
        for (int bx = 0; bx < blocksWide; bx++) {
            int sum = 0, count = 0;
            for (int y = by * 8; y < by * 8 + 8 && y < height; y++)
                for (int x = bx * 8; x < bx * 8 + 8 && x < width; x++, count++)
                    sum += pixels[(size_t)y * stride + x];
            blockMean[(size_t)by * blocksWide + bx] = sum / count;
        }
    // One threshold a pixel column within each block row, so a row is read with one lookup
    // a pixel.
    std::vector<uint8_t> threshold((size_t)blocksHigh * width);
    for (int by = 0; by < blocksHigh; by++)
        for (int bx = 0; bx < blocksWide; bx++) {
            int sum = 0, count = 0;
            for (int y = by - 1; y <= by + 1; y++)
                for (int x = bx - 1; x <= bx + 1; x++)
                    if (y >= 0 && y < blocksHigh && x >= 0 && x < blocksWide) {
                        sum += blockMean[(size_t)y * blocksWide + x];
                        count++;
                    }
            for (int x = bx * 8; x < bx * 8 + 8 && x < width; x++)
                threshold[(size_t)by * width + x] = uint8_t(sum / count);
        }
    auto dark = [&](int x, int y) {
        return pixels[(size_t)y * stride + x] < threshold[(size_t)(y / 8) * width + x];
    };

    std::vector<uint8_t> counted((size_t)blocksWide * blocksHigh, 0);
    std::vector<int> runs, starts;
    runs.reserve(width + 1);
    starts.reserve(width + 1);
    int found = 0;
    for (int y = 0; y < height; y += 2) {
        const uint8_t *row = &pixels[(size_t)y * stride];
        const uint8_t *rowThreshold = &threshold[(size_t)(y / 8) * width];
        runs.clear();
        starts.clear();
        int start = 0;
        const bool firstDark = row[0] < rowThreshold[0];
        bool startDark = firstDark;
        for (int x = 1; x < width; x++) {
            bool isDark = row[x] < rowThreshold[x];
            if (isDark != startDark) {
                runs.push_back(x - start);
                starts.push_back(start);
                start = x;
                startDark = isDark;
            }
        }
        runs.push_back(width - start);
        starts.push_back(start);
        for (size_t i = firstDark ? 0 : 1; i + 4 < runs.size(); i += 2) {
            const int across[5] = {runs[i], runs[i + 1], runs[i + 2], runs[i + 3], runs[i + 4]};
            if (!finderProportions(across)) continue;
            const int total = across[0] + across[1] + across[2] + across[3] + across[4];
            const int cx = starts[i + 2] + across[2] / 2;
            uint8_t &cell = counted[(size_t)(y / 8) * blocksWide + cx / 8];
            if (cell) continue;
            // Down the centre column: the dark centre, then light, then dark, each way.
            int up[3] = {0, 0, 0}, down[3] = {0, 0, 0};
            for (int step = 0, yy = y, want = 1; yy >= 0 && step < 3 && up[step] <= total; yy--) {
                if (dark(cx, yy) == want) up[step]++;
                else if (++step < 3) { want = !want; up[step] = 1; }
            }
            for (int step = 0, yy = y + 1, want = 1; yy < height && step < 3 && down[step] <= total; yy++) {
                if (dark(cx, yy) == want) down[step]++;
                else if (++step < 3) { want = !want; down[step] = 1; }
            }
            const int along[5] = {up[2], up[1], up[0] + down[0], down[1], down[2]};
            const int alongTotal = along[0] + along[1] + along[2] + along[3] + along[4];
            if (!finderProportions(along) || std::abs(alongTotal - total) * 2 > total) continue;
            cell = 1;
            if (++found > limit) return found;
        }
    }
    return found;
}

}  // namespace tzx
