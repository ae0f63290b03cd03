import CZXing

/// Reads machine-readable codes from 8-bit gray images with zxing-cpp (Debian's 1.4), through
/// the `CZXing` shim.
///
/// Never takes the process down: Debian's build keeps zxing-cpp's assertions, and
/// `ReadBarcodes` asserts (Result.cpp:140) when it finds the same linear code twice in one call
/// (a code in a frame over 500 pixels, found again in the downscaled layer; two copies of one
/// label). The shim reads linear codes one symbol per call, masking each one found before the
/// next call, and several symbols per call only for matrix codes, whose comparison returns
/// before the assertion; it never enables DataBar (see Sources/CZXing/ck_zxing.cpp).
///
/// Thread safety: a value type with no shared state; `read` may run on any thread.
public struct BarcodeReader: Sendable {
    /// How zxing binarizes the image.
    public enum Binarizer: Int32, Sendable, CaseIterable {
        /// Local average (zxing's hybrid binarizer): best for uneven camera light.
        case localAverage = 0
        /// One threshold from the histogram: reads small, noisy or low-contrast codes the
        /// local one misses.
        case globalHistogram = 1
    }

    /// One decoding pass.
    public struct Pass: Sendable, Hashable {
        public var binarizer: Binarizer
        /// Inverted images (light codes on dark).
        public var inverted: Bool
        /// Also a downscaled layer for large images (finds large codes faster and blurred ones).
        public var downscale: Bool
        /// Degrees to turn the image first (clockwise): linear codes tilted by about that much
        /// read along rows again.
        public var rotation: Double
        /// Averages each pixel with its 8 neighbours first (sensor noise).
        public var smoothed: Bool
        /// Scales the image first (bilinear): 2 gives small or blurred modules more pixels.
        /// Skipped for images over 1600 pixels.
        public var scale: Double
        /// Sharpens the (scaled) image first (unsharp mask, about 1.5 source pixels): defocused
        /// and JPEG-softened photos of labels.
        public var sharpened: Bool

        public init(binarizer: Binarizer = .localAverage, inverted: Bool = false, downscale: Bool = true, rotation: Double = 0,
                    smoothed: Bool = false, scale: Double = 1, sharpened: Bool = false) {
            self.binarizer = binarizer
            self.inverted = inverted
            self.downscale = downscale
            self.rotation = rotation
            self.smoothed = smoothed
            self.scale = scale
            self.sharpened = sharpened
        }

        /// Whether the pass works on a transformed copy.
        var transforms: Bool { rotation != 0 || smoothed || scale != 1 || sharpened }
    }

    /// A decoded code.
    public struct Code: Sendable, Hashable {
        public var symbology: Symbology
        public var text: String
        /// Top-left, top-right, bottom-right, bottom-left of the symbol in pixels of the whole
        /// image (linear codes: the ends of the bars, traced along them from the scan line that
        /// decoded).
        public var corners: [Point]
        /// The direction of the symbol's reading axis in degrees (0: left to right).
        public var orientation: Int
    }

    /// A point in pixels.
    public struct Point: Sendable, Hashable {
        public var x: Double
        public var y: Double
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// A rectangle in pixels.
    public struct Region: Sendable, Hashable {
        public var x, y, width, height: Int
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    public var symbologies: Set<Symbology>
    /// The passes tried in order until one finds a code: for a camera frame `live` (one pass, a
    /// few milliseconds), for a still image `thorough`.
    public var passes: [Pass]
    /// The most codes returned per image.
    public var maxCodes: Int

    /// One pass: local average with try-harder, rotation and downscaling.
    public static let live = [Pass()]
    /// Every binarizer, with and without inversion, without the downscaled layer, smoothed, the
    /// image turned ±15° and ±30° for tilted codes, doubled (straight and turned), and
    /// sharpened (as it is and doubled) for blurred photos.
    public static let thorough = [Pass(), Pass(binarizer: .globalHistogram), Pass(inverted: true),
                                  Pass(binarizer: .globalHistogram, inverted: true), Pass(downscale: false),
                                  Pass(smoothed: true), Pass(binarizer: .globalHistogram, smoothed: true),
                                  Pass(rotation: 15), Pass(rotation: -15), Pass(rotation: 30), Pass(rotation: -30),
                                  Pass(scale: 2), Pass(rotation: 15, scale: 2), Pass(rotation: -15, scale: 2),
                                  Pass(sharpened: true), Pass(scale: 2, sharpened: true)]

    public init(symbologies: Set<Symbology> = Set(Symbology.allCases), passes: [Pass] = BarcodeReader.live, maxCodes: Int = 8) {
        self.symbologies = symbologies
        self.passes = passes
        self.maxCodes = maxCodes
    }

    /// The codes in a `width` x `height` gray image whose rows are `rowStride` bytes apart,
    /// searched only inside `region` when given (coordinates stay those of the whole image).
    /// Passes run in order until one finds a code.
    public func read(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, rowStride: Int, region: Region? = nil) -> [Code] {
        guard width > 0, height > 0, rowStride >= width, width <= Int(Int32.max), height <= Int(Int32.max),
              rowStride <= Int(Int32.max), pixels.count >= rowStride * (height - 1) + width,
              let base = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), !symbologies.isEmpty else { return [] }
        for pass in passes {
            var codes: [Code]
            if !pass.transforms {
                codes = decode(base, width: width, height: height, rowStride: rowStride, region: region, pass: pass)
            } else {
                if pass.scale > 1 && max(region?.width ?? width, region?.height ?? height) > 1600 { continue }
                let turned = TransformedImage(base, width: width, height: height, rowStride: rowStride, region: region,
                                              degrees: pass.rotation, scale: pass.scale, smoothed: pass.smoothed,
                                              sharpened: pass.sharpened)
                codes = turned.pixels.withUnsafeBufferPointer { buffer in
                    decode(buffer.baseAddress!, width: turned.width, height: turned.height, rowStride: turned.width, region: nil, pass: pass)
                }.map { code in
                    var code = code
                    code.corners = code.corners.map(turned.original)
                    return code
                }
            }
            // Interleaved 2 of 5 has no check digit: a read across turned bars is too likely to be
            // a fragment, so turned passes keep only codes that verify themselves.
            if pass.rotation != 0 { codes.removeAll { $0.symbology == .interleaved2of5 } }
            let distinct = Self.withoutOverlaps(codes)
            if !distinct.isEmpty { return distinct }
        }
        return []
    }

    /// One pass of the shim over an image.
    private func decode(_ base: UnsafePointer<UInt8>, width: Int, height: Int, rowStride: Int, region: Region?, pass: Pass) -> [Code] {
        var options = ck_options()
        ck_options_init(&options)
        options.formats = symbologies.reduce(UInt32(0)) { $0 | $1.bit }
        options.try_harder = true
        options.try_rotate = true
        options.try_invert = pass.inverted
        options.try_downscale = pass.downscale
        options.binarizer = ck_binarizer(rawValue: UInt32(pass.binarizer.rawValue))
        options.max_symbols = Int32(max(1, min(maxCodes, 255)))
        if let region {
            options.has_roi = true
            options.roi = ck_rect(x: Int32(clamping: region.x), y: Int32(clamping: region.y),
                                  width: Int32(clamping: region.width), height: Int32(clamping: region.height))
        }
        var results: UnsafeMutablePointer<ck_results>?
        guard ck_decode_gray(base, Int32(width), Int32(height), Int32(rowStride), &options, &results) == CK_OK,
              let block = results else { return [] }
        defer { ck_results_free(block) }
        return (0..<Int(block.pointee.count)).compactMap { index -> Code? in
            let item = block.pointee.items[index]
            guard let symbology = Symbology(bit: item.format), let text = item.text else { return nil }
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(item.text_length))
            let corners = withUnsafeBytes(of: item.corners) { raw in
                raw.bindMemory(to: ck_point.self).map { Point(x: Double($0.x), y: Double($0.y)) }
            }
            return Code(symbology: symbology, text: String(decoding: bytes, as: UTF8.self), corners: corners,
                        orientation: Int(item.orientation))
        }
    }

    /// Drops a linear code read where an earlier one was (a partial read of the same bars, e.g.
    /// a shorter Interleaved 2 of 5 inside an ITF-14 seen at an angle). Corners trace the bars,
    /// so codes that verify themselves need only be clear of an earlier one's bars; Interleaved
    /// 2 of 5, which has no check digit, must be clear by a quarter of the earlier code's length
    /// (bars traced across a tilt are short) and must not be part of an earlier code's text.
    static func withoutOverlaps(_ codes: [Code]) -> [Code] {
        var kept: [Code] = []
        for code in codes {
            let centre = code.centre
            let unchecked = code.symbology == .interleaved2of5
            let overlaps = !code.symbology.isMatrix && kept.contains { earlier in
                guard !earlier.symbology.isMatrix else { return false }
                if unchecked && earlier.text.contains(code.text) { return true }
                let box = earlier.boundingBox(margin: unchecked ? max(8, earlier.length / 4) : 8 + earlier.length / 20)
                return box.x.contains(centre.x) && box.y.contains(centre.y)
            }
            if !overlaps { kept.append(code) }
        }
        return kept
    }

    /// The zxing-cpp version the shim was built against.
    public static var libraryVersion: String { String(cString: ck_zxing_version()) }
}
