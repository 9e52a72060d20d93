/// PNG scanline filters (PNG spec §9). `bpp` is bytes per complete pixel, at least 1;
/// `previous` is the unfiltered row above, all zero for the first row.

/// Undoes filter `type` in place on `row` (the scanline without its filter byte).
func pngUnfilter(
    _ type: UInt8, _ row: inout [UInt8], from start: Int, count: Int, previous: [UInt8],
    bpp: Int
) throws(QRError) {
    switch type {
    case 0: return
    case 1:
        for i in bpp..<max(bpp, count) {
            row[start + i] &+= row[start + i - bpp]
        }
    case 2:
        for i in 0..<count { row[start + i] &+= previous[i] }
    case 3:
        for i in 0..<count {
            let left = i >= bpp ? Int(row[start + i - bpp]) : 0
            row[start + i] &+= UInt8((left + Int(previous[i])) / 2)
        }
    case 4:
        for i in 0..<count {
            let left = i >= bpp ? row[start + i - bpp] : 0
            let upLeft = i >= bpp ? previous[i - bpp] : 0
            row[start + i] &+= paeth(left, previous[i], upLeft)
        }
    default:
        throw QRError(.malformed, "PNG scanline has unknown filter type \(type)")
    }
}

/// Filters `row` with the type (None, Sub, Up, Paeth) whose output has the smallest sum of
/// absolute signed bytes — the heuristic the PNG spec recommends — and appends the filter
/// byte and the filtered row to `output`.
func pngFilterBest(
    _ row: ArraySlice<UInt8>, previous: ArraySlice<UInt8>, bpp: Int, into output: inout [UInt8]
) {
    let types: [UInt8] = [0, 1, 2, 4]
    @inline(__always) func predictor(_ type: UInt8, _ i: Int) -> UInt8 {
        let r = row.startIndex
        let p = previous.startIndex
        switch type {
        case 1: return i >= bpp ? row[r + i - bpp] : 0
        case 2: return previous[p + i]
        case 4:
            let left = i >= bpp ? row[r + i - bpp] : 0
            let upLeft = i >= bpp ? previous[p + i - bpp] : 0
            return paeth(left, previous[p + i], upLeft)
        default: return 0
        }
    }
    // Score first, write once: no scratch row per candidate.
    var best: UInt8 = 0
    var bestScore = Int.max
    for type in types {
        var score = 0
        for i in 0..<row.count {
            let value = row[row.startIndex + i] &- predictor(type, i)
            score += Int(Int8(bitPattern: value).magnitude)
        }
        if score < bestScore {
            bestScore = score
            best = type
        }
    }
    output.append(best)
    for i in 0..<row.count { output.append(row[row.startIndex + i] &- predictor(best, i)) }
}

@inline(__always)
private func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
    let p = Int(a) + Int(b) - Int(c)
    let pa = abs(p - Int(a))
    let pb = abs(p - Int(b))
    let pc = abs(p - Int(c))
    if pa <= pb && pa <= pc { return a }
    return pb <= pc ? b : c
}
