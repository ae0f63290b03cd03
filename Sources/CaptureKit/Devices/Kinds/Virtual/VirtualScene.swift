import Synchronization

/// The virtual camera's static scene, rendered once per size and list of codes in BGRA.
///
/// Layout (fractions of the frame): by default a QR code on the left and an EAN-13 barcode top
/// right (any codes a device is given instead, see `VirtualScene.Code`), fine detail (1-pixel
/// checkerboard and stripes) below the EAN-13's place, six gray patches from black to white, six
/// colour patches, and a band at the bottom where `VirtualCameraSensor` moves a white square.
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

    private struct Key: Hashable {
        var width: Int, height: Int, codes: [Code]
    }

    private static let cache = Mutex<[Key: VirtualScene]>([:])

    /// The scene at a size with `codes` (the default QR code and EAN-13 unless given), rendered on
    /// first use: codes are rasterised here, never per frame.
    static func scene(width: Int, height: Int, codes: [Code] = Code.defaults) -> VirtualScene {
        let key = Key(width: width, height: height, codes: codes)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let scene = VirtualScene(width: width, height: height, codes: codes)
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

    /// The default QR code's square (including its white quiet zone).
    static func qrRect(width: Int, height: Int) -> (x: Range<Int>, y: Range<Int>) {
        Code.defaults[0].label(width: width, height: height)
    }

    private init(width: Int, height: Int, codes: [Code]) {
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
        Self.drawDetail(&canvas)
        for code in codes { code.draw(on: &canvas) }
        pixels = canvas.words
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
