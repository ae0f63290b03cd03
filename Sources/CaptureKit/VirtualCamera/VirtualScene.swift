import Synchronization

/// The virtual camera's static scene, rendered once per size in BGRA.
///
/// Layout (fractions of the frame): a QR code on the left, an EAN-13 barcode top right, fine
/// detail (1-pixel checkerboard and stripes) below it, six gray patches from black to white,
/// six colour patches, and a band at the bottom where `VirtualCameraSensor` moves a white square.
struct VirtualScene: Sendable {
    static let qrText = "https://capturekit.dev/virtual-camera"
    static let ean13Digits = "4006381333931"
    static let grayLevels: [UInt8] = [0, 51, 102, 153, 204, 255]
    /// BGR colour patches: red, green, blue, cyan, magenta, yellow.
    static let colors: [(b: UInt8, g: UInt8, r: UInt8)] = [
        (0, 0, 255), (0, 255, 0), (255, 0, 0), (255, 255, 0), (255, 0, 255), (0, 255, 255),
    ]
    static let background: UInt8 = 128

    let width: Int
    let height: Int
    /// BGRA pixels, one little-endian word each.
    let pixels: [UInt32]

    /// The band the moving square crosses: y range.
    var movingBand: Range<Int> { Int(Double(height) * 0.88)..<Int(Double(height) * 0.98) }

    private static let cache = Mutex<[Int: VirtualScene]>([:])

    /// The scene at a size, rendered on first use.
    static func scene(width: Int, height: Int) -> VirtualScene {
        let key = width << 32 | height
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let scene = VirtualScene(width: width, height: height)
        cache.withLock { $0[key] = scene }
        return scene
    }

    /// Region of a patch: gray patches on row 0, colour patches on row 1.
    static func patchRect(index: Int, row: Int, width: Int, height: Int) -> (x: Range<Int>, y: Range<Int>) {
        let left = Double(width) * 0.05, span = Double(width) * 0.9 / 6
        let top = Double(height) * (row == 0 ? 0.64 : 0.76)
        let x0 = Int(left + span * Double(index) + span * 0.1), x1 = Int(left + span * Double(index + 1) - span * 0.1)
        return (x0..<x1, Int(top)..<Int(top + Double(height) * 0.1))
    }

    /// The QR code's square (including its white quiet zone).
    static func qrRect(width: Int, height: Int) -> (x: Range<Int>, y: Range<Int>) {
        let side = Int(Double(height) * 0.5)
        let x0 = Int(Double(width) * 0.05), y0 = Int(Double(height) * 0.08)
        return (x0..<(x0 + side), y0..<(y0 + side))
    }

    private init(width: Int, height: Int) {
        self.width = width
        self.height = height
        var canvas = Canvas(width: width, height: height, gray: Self.background)
        for (index, level) in Self.grayLevels.enumerated() {
            let rect = Self.patchRect(index: index, row: 0, width: width, height: height)
            canvas.fill(x: rect.x, y: rect.y, b: level, g: level, r: level)
        }
        for (index, color) in Self.colors.enumerated() {
            let rect = Self.patchRect(index: index, row: 1, width: width, height: height)
            canvas.fill(x: rect.x, y: rect.y, b: color.b, g: color.g, r: color.r)
        }
        Self.drawQR(&canvas)
        Self.drawBarcode(&canvas)
        Self.drawDetail(&canvas)
        pixels = canvas.words
    }

    private static func drawQR(_ canvas: inout Canvas) {
        let rect = qrRect(width: canvas.width, height: canvas.height)
        canvas.fill(x: rect.x, y: rect.y, b: 255, g: 255, r: 255)
        guard let code = try? QRCodeEncoder.encode(qrText) else { return }
        let modules = code.size + 8
        let scale = rect.x.count / modules
        let offset = (rect.x.count - scale * code.size) / 2
        for my in 0..<code.size {
            for mx in 0..<code.size where code[mx, my] {
                let x0 = rect.x.lowerBound + offset + mx * scale, y0 = rect.y.lowerBound + offset + my * scale
                canvas.fill(x: x0..<(x0 + scale), y: y0..<(y0 + scale), b: 0, g: 0, r: 0)
            }
        }
    }

    private static func drawBarcode(_ canvas: inout Canvas) {
        guard let bars = try? EAN13Encoder.encode(ean13Digits) else { return }
        let x0 = Int(Double(canvas.width) * 0.5), x1 = Int(Double(canvas.width) * 0.95)
        let y0 = Int(Double(canvas.height) * 0.08), y1 = Int(Double(canvas.height) * 0.33)
        canvas.fill(x: x0..<x1, y: y0..<y1, b: 255, g: 255, r: 255)
        let scale = max(1, (x1 - x0) / (bars.count + 22))
        let start = x0 + ((x1 - x0) - scale * bars.count) / 2
        let barTop = y0 + (y1 - y0) / 10, barBottom = y1 - (y1 - y0) / 10
        for (index, bar) in bars.enumerated() where bar {
            canvas.fill(x: (start + index * scale)..<(start + (index + 1) * scale), y: barTop..<barBottom, b: 0, g: 0, r: 0)
        }
    }

    private static func drawDetail(_ canvas: inout Canvas) {
        let x0 = Int(Double(canvas.width) * 0.6), x1 = Int(Double(canvas.width) * 0.95)
        let y0 = Int(Double(canvas.height) * 0.38), y1 = Int(Double(canvas.height) * 0.58)
        let middle = (x0 + x1) / 2
        for y in y0..<y1 {
            for x in x0..<x1 {
                let on = x < middle ? (x + y) % 2 == 0 : (x / 2) % 2 == 0
                let level: UInt8 = on ? 255 : 0
                canvas.set(x: x, y: y, b: level, g: level, r: level)
            }
        }
    }
}

/// A BGRA drawing surface: one `UInt32` per pixel, filled row by row.
struct Canvas {
    let width: Int
    let height: Int
    private(set) var words: [UInt32]

    init(width: Int, height: Int, gray: UInt8) {
        self.width = width
        self.height = height
        words = [UInt32](repeating: Canvas.word(b: gray, g: gray, r: gray), count: width * height)
    }

    static func word(b: UInt8, g: UInt8, r: UInt8) -> UInt32 {
        (UInt32(b) | UInt32(g) << 8 | UInt32(r) << 16 | 0xFF00_0000).littleEndian
    }

    mutating func set(x: Int, y: Int, b: UInt8, g: UInt8, r: UInt8) {
        words[y * width + x] = Canvas.word(b: b, g: g, r: r)
    }

    mutating func fill(x: Range<Int>, y: Range<Int>, b: UInt8, g: UInt8, r: UInt8) {
        let columns = x.clamped(to: 0..<width), rows = y.clamped(to: 0..<height)
        guard !columns.isEmpty else { return }
        let value = Canvas.word(b: b, g: g, r: r)
        let width = self.width
        words.withUnsafeMutableBufferPointer { buffer in
            for row in rows {
                let start = row * width + columns.lowerBound
                UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + columns.count)]).update(repeating: value)
            }
        }
    }
}
