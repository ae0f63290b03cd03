import Testing
@testable import CaptureKit

@Suite struct FrameMeterTests {
    typealias RGB = (r: Int, g: Int, b: Int)

    static let rawFormats = PixelFormat.allCases.filter { $0 != .mjpeg && $0 != .h264 }
    static let yuvFormats: Set<PixelFormat> = [.nv12, .i420, .yuy2, .uyvy]
    static let full = MeterRect(x: 0, y: 0, width: 1, height: 1)

    /// BT.601 video-range Y, U, V of an RGB colour, rounded.
    static func yuv(_ c: RGB) -> (y: Int, u: Int, v: Int) {
        let (r, g, b) = (Double(c.r), Double(c.g), Double(c.b))
        let y = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255
        let u = 128 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255
        let v = 128 + (112.0 * r - 93.786 * g - 18.214 * b) / 255
        return (Int(y.rounded()), Int(u.rounded()), Int(v.rounded()))
    }

    /// Rec.601 luma of an RGB colour.
    static func luma(_ c: RGB) -> Double { 0.299 * Double(c.r) + 0.587 * Double(c.g) + 0.114 * Double(c.b) }

    /// GStreamer's default layout, written independently of FrameMeter: (row stride of plane 0, rows of
    /// plane 0 before the chroma planes, chroma stride, total size). Values agree with `gst_video_info_set_format`.
    static func layout(_ format: PixelFormat, _ w: Int, _ h: Int) -> (stride: Int, lumaRows: Int, chromaStride: Int, size: Int) {
        let round4 = { (n: Int) in (n + 3) & ~3 }
        let cw = (w + 1) / 2, ch = (h + 1) / 2
        switch format {
        case .bgra, .rgba, .bgrx: return (w * 4, h, 0, w * 4 * h)
        case .rgb, .bgr: return (round4(w * 3), h, 0, round4(w * 3) * h)
        case .gray8: return (round4(w), h, 0, round4(w) * h)
        case .yuy2, .uyvy: return (round4(cw * 4), h, 0, round4(cw * 4) * h)
        case .nv12: return (round4(w), ch * 2, round4(cw * 2), round4(w) * ch * 2 + round4(cw * 2) * ch)
        case .i420: return (round4(w), ch * 2, round4(cw), round4(w) * ch * 2 + 2 * round4(cw) * ch)
        case .mjpeg, .h264: fatalError("not raw")
        }
    }

    /// A frame of `format` whose pixel (x, y) has `colour(x, y)`; YUV chroma of each 2x1 / 2x2 block is
    /// the colour of its last pixel written (blocks are uniform in these tests).
    static func frame(_ format: PixelFormat, _ w: Int, _ h: Int, _ colour: (Int, Int) -> RGB) -> [UInt8] {
        let l = layout(format, w, h), chromaSize = l.chromaStride * ((h + 1) / 2)
        var bytes = [UInt8](repeating: 0, count: l.size)
        func put(_ i: Int, _ v: Int) { bytes[i] = UInt8(v) }
        for y in 0..<h {
            for x in 0..<w {
                let c = colour(x, y), (Y, U, V) = yuv(c), row = y * l.stride
                let uv = l.stride * l.lumaRows + (y / 2) * l.chromaStride
                switch format {
                case .bgra, .bgrx: put(row + 4 * x, c.b); put(row + 4 * x + 1, c.g); put(row + 4 * x + 2, c.r)
                case .rgba: put(row + 4 * x, c.r); put(row + 4 * x + 1, c.g); put(row + 4 * x + 2, c.b)
                case .rgb: put(row + 3 * x, c.r); put(row + 3 * x + 1, c.g); put(row + 3 * x + 2, c.b)
                case .bgr: put(row + 3 * x, c.b); put(row + 3 * x + 1, c.g); put(row + 3 * x + 2, c.r)
                case .gray8: put(row + x, c.r)
                case .yuy2: put(row + 2 * x, Y); put(row + x / 2 * 4 + 1, U); put(row + x / 2 * 4 + 3, V)
                case .uyvy: put(row + 2 * x + 1, Y); put(row + x / 2 * 4, U); put(row + x / 2 * 4 + 2, V)
                case .nv12: put(row + x, Y); put(uv + x / 2 * 2, U); put(uv + x / 2 * 2 + 1, V)
                case .i420: put(row + x, Y); put(uv + x / 2, U); put(uv + chromaSize + x / 2, V)
                case .mjpeg, .h264: fatalError("not raw")
                }
            }
        }
        return bytes
    }

    /// A grey frame from a luma image (row-major, `w` x `h`).
    static func frame(_ format: PixelFormat, _ w: Int, _ h: Int, luma: [Int]) -> [UInt8] {
        frame(format, w, h) { x, y in let v = luma[y * w + x]; return (v, v, v) }
    }

    /// Box blur of radius `r` (window clipped at the edges, rounded).
    static func blur(_ image: [Int], _ w: Int, _ h: Int, radius r: Int) -> [Int] {
        var out = image
        for y in 0..<h {
            for x in 0..<w {
                var sum = 0, n = 0
                for yy in max(0, y - r)...min(h - 1, y + r) {
                    for xx in max(0, x - r)...min(w - 1, x + r) { sum += image[yy * w + xx]; n += 1 }
                }
                out[y * w + x] = (sum + n / 2) / n
            }
        }
        return out
    }

    static func measure(_ format: PixelFormat, _ w: Int, _ h: Int, _ bytes: [UInt8], exposure: MeterRect = full,
                        whiteBalance: MeterRect = full, focus: MeterRect = full) -> FrameStatistics? {
        let meter = FrameMeter(width: w, height: h, pixelFormat: format)!
        return bytes.withUnsafeBytes { meter.measure($0, exposure: exposure, whiteBalance: whiteBalance, focus: focus) }
    }

    static func expectColour(_ s: FrameStatistics?, _ c: RGB, _ what: String) {
        guard let s else { Issue.record("no statistics: \(what)"); return }
        #expect(abs(s.meanLuma - luma(c)) <= 2, "\(what): luma \(s.meanLuma)")
        #expect(abs(s.red - Double(c.r)) <= 2, "\(what): red \(s.red)")
        #expect(abs(s.green - Double(c.g)) <= 2, "\(what): green \(s.green)")
        #expect(abs(s.blue - Double(c.b)) <= 2, "\(what): blue \(s.blue)")
    }

    @Test func uniformColourEveryFormat() {
        for format in Self.rawFormats {
            let c: RGB = format == .gray8 ? (120, 120, 120) : (200, 100, 50)
            let bytes = Self.frame(format, 64, 48) { _, _ in c }
            for rect in [Self.full, .centreHalf, .around(x: 0.1, y: 0.9, fraction: 0.25)] {
                let s = Self.measure(format, 64, 48, bytes, exposure: rect, whiteBalance: rect, focus: rect)
                Self.expectColour(s, c, "\(format) \(rect)")
                #expect(s?.sharpness == 0, "\(format): a uniform frame has no contrast")
            }
        }
    }

    @Test func exposureRectSelectsPixels() {
        let left = MeterRect(x: 0, y: 0, width: 0.5, height: 1), right = MeterRect(x: 0.5, y: 0, width: 0.5, height: 1)
        for format in Self.rawFormats {
            let bytes = Self.frame(format, 64, 48) { x, _ in x < 32 ? (0, 0, 0) : (255, 255, 255) }
            let dark = Self.measure(format, 64, 48, bytes, exposure: left)!
            let bright = Self.measure(format, 64, 48, bytes, exposure: right)!
            #expect(dark.meanLuma < 2, "\(format)")
            #expect(bright.meanLuma > 253, "\(format)")
            // White balance follows its own rect.
            #expect(Self.measure(format, 64, 48, bytes, exposure: left, whiteBalance: right)!.green > 253, "\(format)")
        }
    }

    @Test func clippedFractionCountsWhiteSamples() {
        for format in Self.rawFormats {
            // A quarter of the columns white, the rest just below the clipping level (luma 245).
            let bytes = Self.frame(format, 64, 48) { x, _ in x < 16 ? (255, 255, 255) : (245, 245, 245) }
            let s = Self.measure(format, 64, 48, bytes)!
            #expect(abs(s.clippedFraction - 0.25) < 0.01, "\(format): \(s.clippedFraction)")
            let dark = Self.measure(format, 64, 48, bytes, exposure: MeterRect(x: 0.5, y: 0, width: 0.5, height: 1))!
            #expect(dark.clippedFraction == 0, "\(format)")
        }
    }

    @Test func aroundClampsInsideTheFrame() {
        let corner = MeterRect.around(x: 1, y: 0, fraction: 0.2)
        #expect(abs(corner.x - 0.8) < 1e-12 && corner.y == 0 && corner.width == 0.2 && corner.height == 0.2)
        #expect(MeterRect.around(x: 0.5, y: 0.5, fraction: 0.5) == .centreHalf)
        #expect(MeterRect.around(x: 0.3, y: 0.9, fraction: 2) == Self.full)
        // A white patch in the bottom right corner, metered around the corner itself.
        let bytes = Self.frame(.bgra, 100, 100) { x, y in x >= 90 && y >= 90 ? (255, 255, 255) : (0, 0, 0) }
        let s = Self.measure(.bgra, 100, 100, bytes, exposure: .around(x: 1, y: 1, fraction: 0.1))!
        #expect(s.meanLuma > 254)
    }

    @Test func sharpnessFallsWithBlur() {
        let (w, h) = (96, 72)
        let checker = (0..<(w * h)).map { i in (i % w + i / w) % 2 == 0 ? 0 : 255 }
        let stripes = (0..<(w * h)).map { i in i % w % 2 == 0 ? 30 : 220 }
        for image in [checker, stripes] {
            let images = [image] + [1, 3, 6].map { Self.blur(image, w, h, radius: $0) }
            for format in Self.rawFormats {
                for focus in [Self.full, .centreHalf] {
                    let s = images.map { Self.measure(format, w, h, Self.frame(format, w, h, luma: $0), focus: focus)!.sharpness }
                    #expect(s[0] > s[1] && s[1] > s[2] && s[2] > s[3] && s[3] > 0, "\(format) \(focus): \(s)")
                }
            }
        }
    }

    @Test func tooSmallBufferGivesNil() {
        for format in Self.rawFormats {
            let meter = FrameMeter(width: 40, height: 30, pixelFormat: format)!
            let short = [UInt8](repeating: 128, count: meter.frameSize - 1)
            #expect(short.withUnsafeBytes { meter.measure($0, exposure: .centreHalf, whiteBalance: .centreHalf, focus: .centreHalf) } == nil)
            #expect(meter.measure(UnsafeRawBufferPointer(start: nil, count: 0), exposure: .centreHalf,
                                  whiteBalance: .centreHalf, focus: .centreHalf) == nil)
        }
    }

    @Test func compressedFormatsAndEmptySizesHaveNoMeter() {
        #expect(FrameMeter(width: 640, height: 480, pixelFormat: .mjpeg) == nil)
        #expect(FrameMeter(width: 640, height: 480, pixelFormat: .h264) == nil)
        #expect(FrameMeter(width: 0, height: 480, pixelFormat: .bgra) == nil)
    }

    @Test func oddSizesUseGStreamersLayout() {
        // From gst_video_info_set_format (GStreamer 1.22) at 321x241: I420/NV12 luma planes are padded to 242 rows.
        let gst: [PixelFormat: Int] = [.i420: 118_096, .nv12: 117_612, .yuy2: 155_204, .uyvy: 155_204,
                                       .rgb: 232_324, .bgr: 232_324, .gray8: 78_084, .bgra: 309_444]
        for format in Self.rawFormats {
            let meter = FrameMeter(width: 321, height: 241, pixelFormat: format)!
            #expect(meter.frameSize == Self.layout(format, 321, 241).size, "\(format)")
            if let size = gst[format] { #expect(meter.frameSize == size, "\(format)") }
            // The last row and column (and their chroma) differ from the rest: reading them proves the
            // addressing reaches the end of each plane and no further.
            let gray = format == .gray8
            let a: RGB = gray ? (60, 60, 60) : (50, 100, 200), b: RGB = gray ? (200, 200, 200) : (200, 100, 50)
            let bytes = Self.frame(format, 321, 241) { x, y in x == 320 || y == 240 ? a : b }
            #expect(bytes.count == meter.frameSize)
            let corner = MeterRect.around(x: 1, y: 1, fraction: 0.001)
            Self.expectColour(Self.measure(format, 321, 241, bytes, exposure: corner, whiteBalance: corner, focus: corner),
                              a, "\(format) corner")
            let s = Self.measure(format, 321, 241, bytes, exposure: .centreHalf, whiteBalance: .centreHalf)
            Self.expectColour(s, b, "\(format) centre")
        }
    }
}
