/// A normalised rectangle in the unrotated sensor image: {0,0} top left, {1,1} bottom right.
struct MeterRect: Sendable, Equatable {
    /// Left edge, as a fraction of the frame width.
    var x: Double
    /// Top edge, as a fraction of the frame height.
    var y: Double
    /// Width, as a fraction of the frame width.
    var width: Double
    /// Height, as a fraction of the frame height.
    var height: Double

    /// The middle half of each dimension (the central quarter of the area).
    static let centreHalf = MeterRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)

    /// The rect of `fraction` of each dimension centred on a point (clamped inside the frame).
    static func around(x: Double, y: Double, fraction: Double) -> MeterRect {
        let f = unit(fraction)
        return MeterRect(x: min(unit(x - f / 2), 1 - f), y: min(unit(y - f / 2), 1 - f), width: f, height: f)
    }
}

/// Cheap statistics of one frame, for the software exposure, white-balance and focus loops.
struct FrameStatistics: Sendable, Equatable {
    /// Mean luma (Rec.601 weights for RGB: 0.299 R + 0.587 G + 0.114 B; for YUV the Y value expanded
    /// from video range: (Y-16)*255/219 clamped to 0...255; GRAY8 the value) over the exposure rect, 0...255.
    var meanLuma: Double
    /// Mean red over the white-balance rect, 0...255 (for YUV from the mean Y, U, V by BT.601, unclamped).
    var red: Double
    /// Mean green over the white-balance rect, 0...255 (for YUV from the mean Y, U, V by BT.601, unclamped).
    var green: Double
    /// Mean blue over the white-balance rect, 0...255 (for YUV from the mean Y, U, V by BT.601, unclamped).
    var blue: Double
    /// A contrast focus measure over the focus rect: mean absolute luma difference (0...255 scale) of
    /// horizontally adjacent pixels along up to 64 rows and vertically adjacent ones along up to 64
    /// columns, at full resolution. Larger = sharper; 0 for a uniform image.
    var sharpness: Double
    /// The fraction (0...1) of the exposure rect's samples clipped white: luma (as above) of 250 or more.
    var clippedFraction: Double
}

/// Measures frames of one raw layout (GStreamer's default `GstVideoInfo` layout: every plane's stride
/// rounded up to 4 bytes, planes back to back; I420/NV12 luma planes span an even number of rows, as
/// GStreamer allocates them). A plain value: no allocation, locks or Foundation in `measure`.
struct FrameMeter: Sendable {
    /// Frame width in pixels.
    let width: Int
    /// Frame height in pixels.
    let height: Int
    /// Bytes a frame of this layout needs (the caller skips smaller buffers).
    let frameSize: Int
    /// Whether the channels are Y, U, V (otherwise R, G, B; GRAY8 reads its byte as all three).
    private var isYUV = false
    /// Row stride of plane 0 and bytes between horizontally adjacent pixels in it.
    private var stride = 0, step = 4
    /// Byte offsets of channels 0, 1, 2 (R G B, or Y U V) for pixel (0, 0).
    private var o0 = 0, o1 = 1, o2 = 2
    /// Addressing of channels 1 and 2: row stride, bytes per chroma sample, log2 subsampling in x and y.
    private var cStride = 0, cStep = 4, cShiftX = 0, cShiftY = 0

    /// A meter for `width` x `height` frames of `pixelFormat`; nil for compressed formats or an empty size.
    init?(width: Int, height: Int, pixelFormat: PixelFormat) {
        guard width > 0, height > 0 else { return nil }
        self.width = width
        self.height = height
        switch pixelFormat {
        case .bgra, .bgrx: (o0, o2) = (2, 0)
        case .rgba: break
        case .rgb: step = 3
        case .bgr: (step, o0, o2) = (3, 2, 0)
        case .gray8: (step, o1, o2) = (1, 0, 0)
        case .yuy2: (isYUV, step, o0, o1, o2, cShiftX) = (true, 2, 0, 1, 3, 1)
        case .uyvy: (isYUV, step, o0, o1, o2, cShiftX) = (true, 2, 1, 0, 2, 1)
        case .nv12, .i420: (isYUV, step, cShiftX, cShiftY) = (true, 1, 1, 1)
        case .mjpeg, .h264: return nil
        }
        stride = (width * step + 3) & ~3
        cStride = stride
        if cShiftY == 0 {
            if !isYUV { cStep = step }
            frameSize = stride * height
            return
        }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        o1 = stride * chromaHeight * 2
        if pixelFormat == .nv12 {
            (o2, cStep) = (o1 + 1, 2)
            frameSize = o1 + cStride * chromaHeight
        } else {
            cStride = (chromaWidth + 3) & ~3
            (o2, cStep) = (o1 + cStride * chromaHeight, 1)
            frameSize = o2 + cStride * chromaHeight
        }
    }

    /// Statistics of `frame` over the given rects, or nil if `frame.count < frameSize`.
    func measure(_ frame: UnsafeRawBufferPointer, exposure: MeterRect, whiteBalance: MeterRect,
                 focus: MeterRect) -> FrameStatistics? {
        guard frame.count >= frameSize, let p = frame.baseAddress else { return nil }
        let e = sums(p, exposure)
        let w = exposure == whiteBalance ? e : sums(p, whiteBalance)
        let n = Double(w.n), c0 = Double(w.c0) / n, c1 = Double(w.c1) / n, c2 = Double(w.c2) / n
        var stats = FrameStatistics(meanLuma: 0, red: c0, green: c1, blue: c2, sharpness: 0,
                                    clippedFraction: Double(e.clipped) / Double(e.n))
        if isYUV {
            stats.meanLuma = Double(e.y) / Double(e.n) * (255.0 / 219)
            // BT.601 video range: R = 1.164(Y-16) + 1.596(V-128), B = 1.164(Y-16) + 2.017(U-128),
            // G = 1.164(Y-16) - 0.392(U-128) - 0.813(V-128).
            let y = (c0 - 16) * (255.0 / 219), u = c1 - 128, v = c2 - 128
            stats.red = y + 1.596027 * v
            stats.green = y - 0.391762 * u - 0.812968 * v
            stats.blue = y + 2.017232 * u
        } else {
            stats.meanLuma = (0.299 * Double(e.c0) + 0.587 * Double(e.c1) + 0.114 * Double(e.c2)) / Double(e.n)
        }
        let f = contrast(p, focus)
        if f.pairs > 0 { stats.sharpness = Double(f.sum) * (isYUV ? 255.0 / 219 : 1.0 / 65536) / Double(f.pairs) }
        return stats
    }

    /// Sums of channels 0, 1, 2 and of channel 0 clamped to 16...235 minus 16, over a centred grid of at
    /// most 4096 pixels of `rect`, with the numbers of pixels clipped white and of all pixels.
    private func sums(_ p: UnsafeRawPointer, _ rect: MeterRect)
        -> (c0: Int, c1: Int, c2: Int, y: Int, clipped: Int, n: Int) {
        let (x0, x1) = span(rect.x, rect.width, width), (y0, y1) = span(rect.y, rect.height, height)
        let w = x1 - x0, h = y1 - y0
        var s = max(1, Int((Double(w * h) / 4096).squareRoot()))
        while ((w + s - 1) / s) * ((h + s - 1) / s) > 4096 { s += 1 }
        var c0 = 0, c1 = 0, c2 = 0, yc = 0, clipped = 0, n = 0
        var y = y0 + (h - 1) % s / 2
        while y < y1 {
            let r0 = o0 + y * stride, r1 = o1 + (y >> cShiftY) * cStride, r2 = o2 + (y >> cShiftY) * cStride
            var x = x0 + (w - 1) % s / 2
            while x < x1 {
                let v = Int(p.load(fromByteOffset: r0 &+ x &* step, as: UInt8.self)), vy = videoRange(v)
                let a = Int(p.load(fromByteOffset: r1 &+ (x >> cShiftX) &* cStep, as: UInt8.self))
                let b = Int(p.load(fromByteOffset: r2 &+ (x >> cShiftX) &* cStep, as: UInt8.self))
                (c0, c1, c2, yc, n) = (c0 &+ v, c1 &+ a, c2 &+ b, yc &+ vy, n &+ 1)
                // 65536 x luma; 76309 = 65536 x 255 / 219.
                let l = isYUV ? vy &* 76309 : 19595 &* v &+ 38470 &* a &+ 7471 &* b
                clipped &+= l >= 250 << 16 ? 1 : 0
                x &+= s
            }
            y &+= s
        }
        return (c0, c1, c2, yc, clipped, n)
    }

    /// Sum of |Δluma| over every horizontally adjacent pair along up to 64 evenly spaced rows of `rect`
    /// and every vertically adjacent pair along up to 64 evenly spaced columns, and the pair count.
    /// Columns are walked a row at a time (not down each column) so memory is read in order.
    private func contrast(_ p: UnsafeRawPointer, _ rect: MeterRect) -> (sum: Int, pairs: Int) {
        let (x0, x1) = span(rect.x, rect.width, width), (y0, y1) = span(rect.y, rect.height, height)
        let w = x1 - x0, h = y1 - y0
        let rs = (h + 63) / 64, ry = y0 + (h - 1) % rs / 2, rows = (y1 - 1 - ry) / rs + 1
        let cs = (w + 63) / 64, cx = x0 + (w - 1) % cs / 2, columns = (x1 - 1 - cx) / cs + 1
        var sum = 0, y = ry
        while y < y1 {
            var at = y * stride + x0 * step
            let end = at + (w - 1) * step
            var previous = luma(p, at)
            while at < end {
                at &+= step
                let l = luma(p, at), d = l &- previous
                sum &+= (d ^ (d >> 63)) &- (d >> 63)
                previous = l
            }
            y &+= rs
        }
        var row = y0 * stride + cx * step
        let lastRow = (y1 - 1) * stride
        while row < lastRow {
            var at = row
            for _ in 0..<columns {
                let d = luma(p, at) &- luma(p, at &+ stride)
                sum &+= (d ^ (d >> 63)) &- (d >> 63)
                at &+= cs &* step
            }
            row &+= stride
        }
        return (sum, rows * (w - 1) + columns * (h - 1))
    }

    /// The luma of the pixel at byte `at` of plane 0: clamped Y - 16 for YUV, else 65536 x Rec.601 luma.
    @inline(__always) private func luma(_ p: UnsafeRawPointer, _ at: Int) -> Int {
        if isYUV { return videoRange(Int(p.load(fromByteOffset: at &+ o0, as: UInt8.self))) }
        return 19595 &* Int(p.load(fromByteOffset: at &+ o0, as: UInt8.self))
            &+ 38470 &* Int(p.load(fromByteOffset: at &+ o1, as: UInt8.self))
            &+ 7471 &* Int(p.load(fromByteOffset: at &+ o2, as: UInt8.self))
    }
}

/// A video-range luma sample clamped to 16...235, minus 16.
@inline(__always) private func videoRange(_ v: Int) -> Int { v < 16 ? 0 : (v > 235 ? 219 : v &- 16) }

/// `v` clamped to 0...1 (NaN becomes 0).
private func unit(_ v: Double) -> Double { v >= 0 ? (v <= 1 ? v : 1) : 0 }

/// The pixels [lo, hi) that the normalised interval origin...origin+length covers in `n`; at least one.
private func span(_ origin: Double, _ length: Double, _ n: Int) -> (Int, Int) {
    let a = unit(origin), b = unit(a + unit(length))
    let lo = min(Int(a * Double(n)), n - 1)
    return (lo, min(max(Int((b * Double(n)).rounded(.up)), lo + 1), n))
}
