extension QRMatrix {
    /// The symbol as a standalone SVG document: a white background and the dark modules as
    /// one path of horizontal runs, in module units (`viewBox`), drawn `moduleSize` pixels
    /// per module with `shape-rendering="crispEdges"` so edges are not anti-aliased.
    /// `stroke="none"` is spelled out because ImageMagick's built-in renderer (MSVG)
    /// otherwise strokes every shape and the code no longer scans.
    public func svg(moduleSize: Int = 8, border: Int = 4) -> String {
        let border = max(0, border)
        let side = size + 2 * border
        let pixels = side * max(1, moduleSize)
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard self[x, y] else {
                    x += 1
                    continue
                }
                let start = x
                while x < size && self[x, y] { x += 1 }
                path += "M\(start + border) \(y + border)h\(x - start)v1h-\(x - start)z"
            }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(pixels)" \
            height="\(pixels)" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">
            <rect width="\(side)" height="\(side)" fill="#ffffff" stroke="none"/>
            <path fill="#000000" stroke="none" d="\(path)"/>
            </svg>

            """
    }
}
