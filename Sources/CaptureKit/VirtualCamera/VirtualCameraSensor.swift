import Foundation
import GStreamerSwift
import Synchronization

/// Paints the virtual camera's frames on the source's streaming thread.
///
/// Threading: the probe runs on the `videotestsrc` streaming thread, once per frame, before the
/// frame reaches any output. It reads the device's settings; when they changed since the last
/// frame it re-renders the scene through the simulated optics (lens blur by distance from the
/// in-focus position, digital zoom, exposure, torch light, the scene's light colour and the
/// white-balance gains) and tells the device which frame (presentation time) first
/// carries them, so completion handlers get an exact `syncTime`. Then it copies the rendered
/// scene into the buffer in place and draws the moving square.
final class VirtualCameraSensor: Sendable {
    let scene: VirtualScene
    let device: CaptureDevice?
    private let frames = Atomic<Int>(0)
    /// The scene as exposed with the settings of `generation`; touched by the streaming thread only.
    private let exposed: Mutex<(generation: Int, pixels: [UInt32])>

    init(device: CaptureDevice?, width: Int, height: Int) {
        scene = VirtualScene.scene(width: width, height: height)
        self.device = device
        exposed = Mutex((generation: -1, pixels: scene.pixels))
    }

    /// Frames painted so far.
    var frameCount: Int { frames.load(ordering: .relaxed) }

    /// Installs the painter on `pad` (the source's caps filter output).
    func install(on pad: Pad) {
        pad.addBufferProbe { [self] buffer in
            let index = frames.add(1, ordering: .relaxed).oldValue
            let time = buffer.presentationTime.map { CaptureTime(nanoseconds: $0) }
            try? buffer.withWritableBytes { bytes in paint(frame: index, time: time, into: bytes) }
            return .pass
        }
    }

    /// The moving square's left edge for a frame: it crosses the band in 4 seconds at 30 fps.
    func squareX(frame: Int) -> Int {
        let side = scene.movingBand.count
        let travel = max(1, scene.width - side)
        return (frame * travel / 120) % travel
    }

    private func paint(frame: Int, time: CaptureTime?, into bytes: UnsafeMutableRawBufferPointer) {
        let width = scene.width
        guard bytes.count >= scene.pixels.count * 4 else { return }
        let height = scene.height
        if let time { device?.advanceZoomRamp(at: time) }
        let settings = device?.readState {
            ($0.sensor.generation, $0.exposure.relativeExposure * $0.torch.gain, $0.focus.blurRadius(height: height),
             $0.zoom.factor, $0.whiteBalance)
        }
        exposed.withLock { exposed in
            if let (generation, gain, radius, zoom, balance) = settings, generation != exposed.generation {
                let zoomed = Self.zoom(scene.pixels, width: width, height: height, factor: zoom)
                let blurred = Self.blur(zoomed, width: width, height: height, radius: radius)
                // Raw = scene × light colour × light gathered; output = raw × white-balance gains,
                // applied in one pass so that balanced gray stays exactly gray.
                let tint = balance.lightTint
                let raw = (red: tint.red * gain, green: tint.green * gain, blue: tint.blue * gain)
                let grayWorld = Self.grayWorldGains(blurred, width: width, height: height, light: raw)
                var gains = balance.gains
                if balance.mode == .continuousAutoWhiteBalance { gains = grayWorld }
                let rendered = Self.expose(blurred, by: (raw.red * Double(gains.redGain), raw.green * Double(gains.greenGain),
                                                         raw.blue * Double(gains.blueGain)))
                let offset = log2(max(Self.centreMean(rendered, width: width, height: height), 1e-3)
                                  / max(Self.centreMean(blurred, width: width, height: height), 1e-3))
                device?.withState {
                    $0.whiteBalance.grayWorld = grayWorld
                    if $0.whiteBalance.mode == .continuousAutoWhiteBalance { $0.whiteBalance.gains = gains }
                    $0.exposure.targetOffset = Float(offset) - $0.exposure.bias
                }
                exposed = (generation, rendered)
                if let time { device?.sensorApplied(generation: generation, at: time) }
            }
            exposed.pixels.withUnsafeBytes { source in
                bytes.baseAddress!.copyMemory(from: source.baseAddress!, byteCount: source.count)
            }
        }
        let band = scene.movingBand
        let x0 = squareX(frame: frame), side = band.count
        let rowBytes = side * 4
        for y in band {
            let start = (y * width + x0) * 4
            (bytes.baseAddress! + start).initializeMemory(as: UInt8.self, repeating: 255, count: rowBytes)
        }
    }

    /// Digital zoom: the centre 1/`factor` of the frame scaled up to the whole frame (nearest
    /// pixel), so output pixel (x, y) shows scene pixel (cx + (x − cx) / factor, cy + (y − cy) / factor).
    static func zoom(_ pixels: [UInt32], width: Int, height: Int, factor: Double) -> [UInt32] {
        guard factor > 1 else { return pixels }
        let columns = (0..<width).map { Int((Double(width) / 2 + (Double($0) - Double(width) / 2) / factor).rounded(.down)) }
        var output = pixels
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { output in
                for y in 0..<height {
                    let sourceRow = Int((Double(height) / 2 + (Double(y) - Double(height) / 2) / factor).rounded(.down)) * width
                    for x in 0..<width { output[y * width + x] = source[sourceRow + columns[x]] }
                }
            }
        }
        return output
    }

    /// A box blur of `radius` pixels, horizontal then vertical, with running sums per channel.
    static func blur(_ pixels: [UInt32], width: Int, height: Int, radius: Int) -> [UInt32] {
        guard radius > 0 else { return pixels }
        var output = pixels
        var scratch = pixels
        pixels.withUnsafeBufferPointer { source in
            scratch.withUnsafeMutableBufferPointer { scratch in
                boxPass(source, into: scratch, count: height, length: width, stride: 1, lineStride: width, radius: radius)
            }
        }
        scratch.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { output in
                boxPass(source, into: output, count: width, length: height, stride: width, lineStride: 1, radius: radius)
            }
        }
        return output
    }

    /// One blur pass over `count` lines of `length` pixels; edges repeat the border pixel.
    private static func boxPass(_ source: UnsafeBufferPointer<UInt32>, into output: UnsafeMutableBufferPointer<UInt32>,
                                count: Int, length: Int, stride: Int, lineStride: Int, radius: Int) {
        let window = UInt32(2 * radius + 1)
        for line in 0..<count {
            let base = line * lineStride
            func pixel(_ index: Int) -> UInt32 { source[base + min(max(index, 0), length - 1) * stride] }
            var sums: (UInt32, UInt32, UInt32) = (0, 0, 0)
            for index in -radius...radius {
                let word = pixel(index)
                sums.0 += word & 0xFF; sums.1 += word >> 8 & 0xFF; sums.2 += word >> 16 & 0xFF
            }
            for index in 0..<length {
                output[base + index * stride] = sums.0 / window | (sums.1 / window) << 8 | (sums.2 / window) << 16 | 0xFF00_0000
                let leaving = pixel(index - radius), entering = pixel(index + radius + 1)
                sums.0 = sums.0 + (entering & 0xFF) - (leaving & 0xFF)
                sums.1 = sums.1 + (entering >> 8 & 0xFF) - (leaving >> 8 & 0xFF)
                sums.2 = sums.2 + (entering >> 16 & 0xFF) - (leaving >> 16 & 0xFF)
            }
        }
    }

    /// The scene with each colour channel scaled by its gain (light gathered, the light's tint,
    /// white-balance gains) and clipped, through a 256-entry table per channel. A simplification:
    /// the virtual sensor's raw values are the scene's encoded values.
    static func expose(_ pixels: [UInt32], by gains: (red: Double, green: Double, blue: Double)) -> [UInt32] {
        if abs(gains.red - 1) < 1e-9 && abs(gains.green - 1) < 1e-9 && abs(gains.blue - 1) < 1e-9 { return pixels }
        func table(_ gain: Double) -> [UInt32] { (0..<256).map { UInt32(min(255, (Double($0) * gain).rounded())) } }
        let red = table(gains.red), green = table(gains.green), blue = table(gains.blue)
        return pixels.map { word in
            blue[Int(word & 0xFF)] | green[Int(word >> 8 & 0xFF)] << 8 | red[Int(word >> 16 & 0xFF)] << 16 | (word & 0xFF00_0000)
        }
    }

    /// The mean green level over the centre 50 % of the frame: what the exposure meter reads.
    static func centreMean(_ pixels: [UInt32], width: Int, height: Int) -> Double {
        var sum = 0, count = 0
        for y in (height / 4)..<(height * 3 / 4) {
            for x in (width / 4)..<(width * 3 / 4) {
                sum += Int(pixels[y * width + x] >> 8 & 0xFF)
                count += 1
            }
        }
        return Double(sum) / Double(max(count, 1))
    }

    /// Gray world over the centre 50 % of the raw frame (`pixels` lit by `light` per channel):
    /// the gains that make its mean gray, the smallest 1.0, each at most the device's maximum.
    static func grayWorldGains(_ pixels: [UInt32], width: Int, height: Int,
                               light: (red: Double, green: Double, blue: Double)) -> CaptureDevice.WhiteBalanceGains {
        var sums = (red: 0, green: 0, blue: 0)
        for y in (height / 4)..<(height * 3 / 4) {
            for x in (width / 4)..<(width * 3 / 4) {
                let word = pixels[y * width + x]
                sums.blue += Int(word & 0xFF); sums.green += Int(word >> 8 & 0xFF); sums.red += Int(word >> 16 & 0xFF)
            }
        }
        let means = (red: Double(sums.red) * light.red, green: Double(sums.green) * light.green, blue: Double(sums.blue) * light.blue)
        let peak = max(means.red, means.green, means.blue, 1e-9)
        func gain(_ mean: Double) -> Float { Float(min(Double(WhiteBalanceState.maxGain), peak / max(mean, 1e-9))) }
        return CaptureDevice.WhiteBalanceGains(redGain: gain(means.red), greenGain: gain(means.green), blueGain: gain(means.blue))
    }
}
