import Foundation

/// An 8-bit gray test image: symbols encoded by Debian's `zint` (its `--dump` module matrix),
/// drawn at a module size with a quiet zone, then degraded the ways a camera degrades them.
struct TestImage {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, fill: UInt8 = 255) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: fill, count: width * height)
    }

    subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// The module rows zint encodes for `data` as `barcode` (e.g. "QRCODE", "EANX"), with extra
    /// zint options.
    static func modules(_ barcode: String, _ data: String, options: [String] = []) throws -> [[Bool]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zint")
        process.arguments = ["-b", barcode, "-d", data, "--dump"] + options
        let pipe = Pipe(), errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let rows = String(decoding: output, as: UTF8.self).split(separator: "\n").map { line in
            line.split(separator: " ").flatMap { group -> [Bool] in
                let digits = Array(group)
                let value = UInt64(String(group), radix: 16) ?? 0
                return (0..<(digits.count * 4)).map { value >> UInt64(digits.count * 4 - 1 - $0) & 1 == 1 }
            }
        }
        guard process.terminationStatus == 0, !rows.isEmpty else {
            throw NSError(domain: "zint", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)])
        }
        return rows
    }

    /// A symbol drawn with `module` pixels per module and a 10-module quiet zone; a linear
    /// code's single row is drawn `linearHeight` modules tall.
    static func symbol(_ rows: [[Bool]], module: Int, linearHeight: Int = 40) -> TestImage {
        let drawn = rows.count == 1 ? Array(repeating: rows[0], count: linearHeight) : rows
        let columns = drawn.map(\.count).max() ?? 0, quiet = 10
        var image = TestImage(width: (columns + 2 * quiet) * module, height: (drawn.count + 2 * quiet) * module)
        for (row, bits) in drawn.enumerated() {
            for (column, bit) in bits.enumerated() where bit {
                for dy in 0..<module {
                    for dx in 0..<module { image[(column + quiet) * module + dx, (row + quiet) * module + dy] = 0 }
                }
            }
        }
        return image
    }

    /// This image pasted into a larger one at (x, y).
    func placed(in width: Int, _ height: Int, x: Int, y: Int, background: UInt8 = 255) -> TestImage {
        var canvas = TestImage(width: width, height: height, fill: background)
        for row in 0..<self.height where row + y < height {
            for column in 0..<self.width where column + x < width { canvas[column + x, row + y] = self[column, row] }
        }
        return canvas
    }

    /// Scaled by `factor` (bilinear).
    func scaled(_ factor: Double) -> TestImage {
        var output = TestImage(width: max(1, Int(Double(width) * factor)), height: max(1, Int(Double(height) * factor)))
        for y in 0..<output.height {
            for x in 0..<output.width { output[x, y] = sample((Double(x) + 0.5) / factor - 0.5, (Double(y) + 0.5) / factor - 0.5) }
        }
        return output
    }

    /// Rotated by `degrees` about the centre onto a canvas large enough to hold it (bilinear).
    func rotated(_ degrees: Double) -> TestImage {
        let angle = degrees * .pi / 180, c = cos(angle), s = sin(angle)
        let w = Int((abs(Double(width) * c) + abs(Double(height) * s)).rounded(.up))
        let h = Int((abs(Double(width) * s) + abs(Double(height) * c)).rounded(.up))
        var output = TestImage(width: w, height: h)
        let cx = Double(width) / 2, cy = Double(height) / 2, ox = Double(w) / 2, oy = Double(h) / 2
        for y in 0..<h {
            for x in 0..<w {
                let dx = Double(x) + 0.5 - ox, dy = Double(y) + 0.5 - oy
                output[x, y] = sample(c * dx + s * dy + cx - 0.5, -s * dx + c * dy + cy - 0.5)
            }
        }
        return output
    }

    /// A box blur of `radius` pixels.
    func blurred(_ radius: Int) -> TestImage {
        var output = self
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0, count = 0
                for yy in max(0, y - radius)...min(height - 1, y + radius) {
                    for xx in max(0, x - radius)...min(width - 1, x + radius) { sum += Int(self[xx, yy]); count += 1 }
                }
                output[x, y] = UInt8(sum / count)
            }
        }
        return output
    }

    /// Gaussian noise of standard deviation `sigma` levels (seeded, so tests repeat).
    func noisy(_ sigma: Double, seed: UInt64 = 7) -> TestImage {
        var output = self, state = seed
        func uniform() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        for index in output.pixels.indices {
            let gaussian = (-2 * log(max(uniform(), 1e-12))).squareRoot() * cos(2 * .pi * uniform())
            output.pixels[index] = UInt8(min(255, max(0, Double(pixels[index]) + gaussian * sigma)))
        }
        return output
    }

    /// Levels squeezed into `low`…`high`.
    func contrast(low: UInt8, high: UInt8) -> TestImage {
        var output = self
        output.pixels = pixels.map { UInt8(Int(low) + Int($0) * Int(high - low) / 255) }
        return output
    }

    /// Light on dark.
    func inverted() -> TestImage {
        var output = self
        output.pixels = pixels.map { 255 - $0 }
        return output
    }

    private func sample(_ x: Double, _ y: Double) -> UInt8 {
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down)), fx = x - Double(x0), fy = y - Double(y0)
        func at(_ x: Int, _ y: Int) -> Double { x < 0 || y < 0 || x >= width || y >= height ? 255 : Double(self[x, y]) }
        let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx, bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
        return UInt8((top * (1 - fy) + bottom * fy).rounded())
    }
}
