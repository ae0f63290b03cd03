import Foundation

extension BarcodeReader.Code {
    /// The mean of the corners.
    var centre: BarcodeReader.Point {
        BarcodeReader.Point(x: corners.map(\.x).reduce(0, +) / Double(max(corners.count, 1)),
                            y: corners.map(\.y).reduce(0, +) / Double(max(corners.count, 1)))
    }

    /// The longer side of the corners' quadrilateral.
    var length: Double {
        guard corners.count == 4 else { return 0 }
        func distance(_ a: BarcodeReader.Point, _ b: BarcodeReader.Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        return max(distance(corners[0], corners[1]), distance(corners[1], corners[2]))
    }

    /// The axis-aligned box around the corners, grown by `margin` pixels.
    func boundingBox(margin: Double) -> (x: ClosedRange<Double>, y: ClosedRange<Double>) {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return ((xs.min() ?? 0) - margin...(xs.max() ?? 0) + margin, (ys.min() ?? 0) - margin...(ys.max() ?? 0) + margin)
    }
}

/// A gray image (or a region of it) scaled and turned about its centre onto a canvas that holds
/// all of it (bilinear, white where nothing was), optionally smoothed (3x3 mean) or sharpened
/// (unsharp mask), with the way
/// back to the original's coordinates.
struct TransformedImage {
    let width: Int, height: Int
    var pixels: [UInt8]
    private let cosine: Double, sine: Double, scale: Double
    private let centre: (x: Double, y: Double), turnedCentre: (x: Double, y: Double)

    init(_ base: UnsafePointer<UInt8>, width sourceWidth: Int, height sourceHeight: Int, rowStride: Int,
         region: BarcodeReader.Region?, degrees: Double, scale: Double = 1, smoothed: Bool = false, sharpened: Bool = false) {
        let left = max(0, region?.x ?? 0), top = max(0, region?.y ?? 0)
        let areaWidth = min(region?.width ?? sourceWidth, sourceWidth - left), areaHeight = min(region?.height ?? sourceHeight, sourceHeight - top)
        let angle = degrees * .pi / 180
        cosine = cos(angle)
        sine = sin(angle)
        self.scale = scale
        let width = Int(((abs(Double(areaWidth) * cosine) + abs(Double(areaHeight) * sine)) * scale).rounded(.up))
        let height = Int(((abs(Double(areaWidth) * sine) + abs(Double(areaHeight) * cosine)) * scale).rounded(.up))
        self.width = width
        self.height = height
        centre = (Double(left) + Double(areaWidth) / 2, Double(top) + Double(areaHeight) / 2)
        turnedCentre = (Double(width) / 2, Double(height) / 2)
        var pixels = [UInt8](repeating: 255, count: max(0, width * height))
        let (c, s, cx, cy, ox, oy) = (cosine / scale, sine / scale, centre.x, centre.y, turnedCentre.x, turnedCentre.y)
        let (x0, y0, x1, y1) = (left, top, left + areaWidth - 1, top + areaHeight - 1)
        pixels.withUnsafeMutableBufferPointer { output in
            for y in 0..<height {
                let dy = Double(y) + 0.5 - oy
                for x in 0..<width {
                    let dx = Double(x) + 0.5 - ox
                    // The inverse transform, sampled between the four nearest source pixels.
                    let sx = c * dx + s * dy + cx - 0.5, sy = -s * dx + c * dy + cy - 0.5
                    let ix = Int(sx.rounded(.down)), iy = Int(sy.rounded(.down))
                    guard ix >= x0 && iy >= y0 && ix < x1 && iy < y1 else { continue }
                    let fx = sx - Double(ix), fy = sy - Double(iy), row = iy * rowStride
                    let top = Double(base[row + ix]) * (1 - fx) + Double(base[row + ix + 1]) * fx
                    let bottom = Double(base[row + rowStride + ix]) * (1 - fx) + Double(base[row + rowStride + ix + 1]) * fx
                    output[y * width + x] = UInt8(top * (1 - fy) + bottom * fy)
                }
            }
        }
        if smoothed { pixels = Self.smoothed(pixels, width: width, height: height) }
        // Unsharp mask over about 1.5 source pixels: a box blur of radius r twice ≈ a Gaussian of
        // sigma √(2r(r+1)/3).
        if sharpened { pixels = Self.sharpened(pixels, width: width, height: height, radius: max(1, Int((1.5 * scale).rounded())), amount: 1.5) }
        self.pixels = pixels
    }

    /// `amount` times the difference from a blurred copy added to each pixel, clipped.
    static func sharpened(_ pixels: [UInt8], width: Int, height: Int, radius: Int, amount: Double) -> [UInt8] {
        var blurred = [Int32](repeating: 0, count: pixels.count), scratch = blurred
        pixels.withUnsafeBufferPointer { input in
            blurred.withUnsafeMutableBufferPointer { blurred in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    for y in 0..<height { for x in 0..<width { blurred[y * width + x] = Int32(input[y * width + x]) } }
                    for _ in 0..<2 {
                        boxPass(blurred, into: scratch, count: height, length: width, stride: 1, lineStride: width, radius: radius)
                        boxPass(scratch, into: blurred, count: width, length: height, stride: width, lineStride: 1, radius: radius)
                    }
                }
            }
        }
        var output = pixels
        let gain = Int32(amount * 256)
        for index in output.indices {
            let value = Int32(pixels[index]), difference = value - blurred[index]
            output[index] = UInt8(clamping: value + (difference * gain) >> 8)
        }
        return output
    }

    /// A running mean of 2r+1 samples along `count` lines of `length` (edges repeat).
    private static func boxPass(_ source: UnsafeMutableBufferPointer<Int32>, into output: UnsafeMutableBufferPointer<Int32>,
                                count: Int, length: Int, stride: Int, lineStride: Int, radius: Int) {
        let window = Int32(2 * radius + 1)
        for line in 0..<count {
            let base = line * lineStride
            func at(_ index: Int) -> Int32 { source[base + min(max(index, 0), length - 1) * stride] }
            var sum: Int32 = 0
            for index in -radius...radius { sum += at(index) }
            for index in 0..<length {
                output[base + index * stride] = sum / window
                sum += at(index + radius + 1) - at(index - radius)
            }
        }
    }

    /// Each pixel the mean of itself and its 8 neighbours (edges repeat).
    static func smoothed(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        var output = pixels
        pixels.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                for y in 0..<height {
                    let rows = (max(y - 1, 0) * width, y * width, min(y + 1, height - 1) * width)
                    for x in 0..<width {
                        let left = max(x - 1, 0), right = min(x + 1, width - 1)
                        var sum = Int(input[rows.0 + left]) + Int(input[rows.0 + x]) + Int(input[rows.0 + right])
                        sum += Int(input[rows.1 + left]) + Int(input[rows.1 + x]) + Int(input[rows.1 + right])
                        sum += Int(input[rows.2 + left]) + Int(input[rows.2 + x]) + Int(input[rows.2 + right])
                        output[y * width + x] = UInt8(sum / 9)
                    }
                }
            }
        }
        return output
    }

    /// Where a point of the transformed image lies in the original.
    func original(_ point: BarcodeReader.Point) -> BarcodeReader.Point {
        let dx = (point.x - turnedCentre.x) / scale, dy = (point.y - turnedCentre.y) / scale
        return BarcodeReader.Point(x: cosine * dx + sine * dy + centre.x, y: -sine * dx + cosine * dy + centre.y)
    }
}
