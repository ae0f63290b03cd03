import Foundation
import GStreamerSwift
import Synchronization

/// Paints the virtual camera's frames on the source's streaming thread.
///
/// Threading: the probe runs on the `videotestsrc` streaming thread, once per frame, before the
/// frame reaches any output. It reads the device's settings; when they changed since the last
/// frame it re-renders the scene through the simulated optics (lens blur by distance from the
/// in-focus position, digital zoom, exposure, torch and flash light, the scene's light level and
/// colour, the white-balance gains, HDR tone mapping) and tells the device which frame
/// (presentation time) first carries them, so completion handlers get an exact `syncTime`. Then
/// it copies the rendered scene into the buffer in place, with noise growing with ISO, and draws
/// the moving square. The auto modes are not here: `AutoControlLoop` meters each painted frame
/// (before the square is drawn, so that they settle on a still scene) and changes the settings.
final class VirtualCameraSensor: FramePainter {
    let scene: VirtualScene
    let device: CaptureDevice?
    private let motion: VirtualSceneMotion?
    private let frames = Atomic<Int>(0)
    /// The scene as exposed with the settings of `generation`; touched by the streaming thread only.
    private let exposed: Mutex<(generation: Int, pixels: [UInt32], noise: (sigma: Double, table: [Int8]?))>

    init(device: CaptureDevice?, width: Int, height: Int) {
        scene = VirtualScene.scene(width: width, height: height, codes: (device?.backend as? VirtualCameraBackend)?.sceneCodes.value.withLock { $0 } ?? VirtualScene.Code.defaults)
        self.device = device
        motion = (device?.backend as? VirtualCameraBackend)?.sceneMotion
        exposed = Mutex((generation: -1, pixels: scene.pixels, noise: (0, nil)))
    }

    /// The mean luma over the centre half of the scene as the sensor renders it with a new
    /// device's settings (the metered exposure, tungsten light balanced by its gains): what auto
    /// exposure aims at.
    func targetLuma(pixelFormat: PixelFormat) -> Double {
        let meter = FrameMeter(width: scene.width, height: scene.height, pixelFormat: pixelFormat)
        let fresh = CaptureDevice.DeviceState(activeFormat: VirtualCamera.formats[0])
        return render(RenderSettings(fresh, height: scene.height)).withUnsafeBytes { bytes in
            meter?.measure(bytes, exposure: .centreHalf, whiteBalance: .centreHalf, focus: .centreHalf)?.meanLuma
        } ?? AutoControlLoop.middleGray
    }

    /// A frame's duration where its buffer does not say (30 fps), in nanoseconds.
    static let nominalFrameDuration: UInt64 = 33_333_333
    /// How many frame durations late a frame may be and still be painted (a third of a second
    /// at 30 fps): enough that a slow start or a short stall is absorbed as a driver's queue of
    /// buffers absorbs it, little enough that a camera switch moves the stream no more than that.
    /// (Three worked as well, once the movie finalizer kept a key frame before the audio's start;
    /// ten is what the browser checks were run with.)
    static let queuedFrames: UInt64 = 10

    /// Frames painted so far.
    var frameCount: Int { frames.load(ordering: .relaxed) }

    /// Installs the painter on `pad` (the source's caps filter output); `source` is the element
    /// whose clock tells the time a frame is painted at.
    ///
    /// A frame already more than ``queuedFrames`` frame durations old when it reaches the
    /// painter is dropped unpainted, as a camera's driver drops the frames nobody took once its
    /// queue of buffers is full (a shorter stall is absorbed as the queue absorbs it: those frames
    /// keep their times and follow one another quickly). `videotestsrc` stamps frames by count, so
    /// a painter slower than the frame rate (a debug build re-rendering the scene every frame
    /// while auto exposure moves) would otherwise leave every later frame's time seconds behind
    /// the clock, and a camera switch (whose new source stamps by the clock) would then jump the
    /// stream seconds ahead, which a WebRTC viewer holds back as far.
    func install(on pad: Pad, loop: AutoControlLoop?, source: Element) {
        pad.addBufferProbe { [self] buffer in
            if let time = buffer.runningTime, let now = source.runningTime,
               now > time + Self.queuedFrames * (buffer.duration ?? Self.nominalFrameDuration) {
                return .drop
            }
            let index = frames.add(1, ordering: .relaxed).oldValue
            let time = buffer.presentationTime.map { CaptureTime(nanoseconds: $0) }
            try? buffer.withWritableBytes { bytes in paint(frame: index, time: time, into: bytes, loop: loop) }
            return .pass
        }
    }

    /// The moving square's left edge for a frame: it crosses the band in 4 seconds at 30 fps.
    func squareX(frame: Int) -> Int {
        let side = scene.movingBand.count
        let travel = max(1, scene.width - side)
        return (frame * travel / 120) % travel
    }

    private func paint(frame: Int, time: CaptureTime?, into bytes: UnsafeMutableRawBufferPointer, loop: AutoControlLoop?) {
        let width = scene.width
        guard bytes.count >= scene.pixels.count * 4 else { return }
        let height = scene.height
        if let time { device?.advanceZoomRamp(at: time) }
        let settings = device?.readState { RenderSettings($0, height: height) }
        var applied: Int?
        exposed.withLock { exposed in
            if let settings, settings.generation != exposed.generation {
                let noise = settings.noiseSigma == exposed.noise.sigma ? exposed.noise : (settings.noiseSigma, Self.noiseTable(sigma: settings.noiseSigma))
                exposed = (settings.generation, render(settings), noise)
                applied = settings.generation
            }
            let target = bytes.bindMemory(to: UInt32.self)
            exposed.pixels.withUnsafeBufferPointer { source in
                guard let noise = exposed.noise.table else {
                    target.baseAddress!.update(from: source.baseAddress!, count: source.count)
                    return
                }
                Self.copy(source, into: target, noise: noise, start: frame &* 7919)
            }
        }
        loop?.process(UnsafeRawBufferPointer(bytes), at: time)
        // Completion handlers run once the frame is metered, so they see its metering.
        if let applied, let time { device?.sensorApplied(generation: applied, at: time) }
        let (movers, square) = motion?.value.withLock { ($0.movers, $0.square) } ?? ([], .moving)
        if square != .hidden { fill(bytes, x: squareX(frame: square == .moving ? frame : 0), y: scene.movingBand.lowerBound, side: scene.movingBand.count, level: 255) }
        if let seconds = time?.seconds {
            for mover in movers {
                guard let rect = mover.rect(at: seconds) else { continue }
                let x = Int(rect.minX * Double(width)), y = Int(rect.minY * Double(height))
                fill(bytes, x: x, y: y, width: Int(rect.width * Double(width)), height: Int(rect.height * Double(height)), level: mover.level)
            }
        }
        if FrameStamp.isEnabled { FrameStamp.paint(frame: frame, into: bytes, width: width) }
    }

    /// Fills a rectangle of the frame (clipped to it) with gray `level`.
    private func fill(_ bytes: UnsafeMutableRawBufferPointer, x: Int, y: Int, side: Int, level: UInt8) {
        fill(bytes, x: x, y: y, width: side, height: side, level: level)
    }

    private func fill(_ bytes: UnsafeMutableRawBufferPointer, x: Int, y: Int, width: Int, height: Int, level: UInt8) {
        let columns = (x..<(x + width)).clamped(to: 0..<scene.width), rows = (y..<(y + height)).clamped(to: 0..<scene.height)
        guard !columns.isEmpty else { return }
        let word = Canvas.word(b: level, g: level, r: level)
        let pixels = bytes.bindMemory(to: UInt32.self)
        for row in rows {
            let start = row * scene.width + columns.lowerBound
            UnsafeMutableBufferPointer(rebasing: pixels[start..<(start + columns.count)]).update(repeating: word)
        }
    }

    /// The scene through the optics for `settings`: zoom, lens blur, then light × gains per
    /// channel (applied in one pass so that balanced gray stays exactly gray), tone-mapped with
    /// HDR on.
    private func render(_ settings: RenderSettings) -> [UInt32] {
        let zoomed = Self.zoom(scene.pixels, width: scene.width, height: scene.height, factor: settings.zoom)
        let blurred = Self.blur(zoomed, width: scene.width, height: scene.height, radius: settings.blurRadius)
        let tint = settings.balance.lightTint, gains = settings.balance.gains, light = settings.light
        return Self.expose(blurred, by: (tint.red * light * Double(gains.redGain), tint.green * light * Double(gains.greenGain),
                                         tint.blue * light * Double(gains.blueGain)), hdr: settings.hdr)
    }

    /// Copies the exposed frame adding temporal noise: the same table read from a different
    /// start each frame, added to each channel and clipped.
    private static func copy(_ source: UnsafeBufferPointer<UInt32>, into target: UnsafeMutableBufferPointer<UInt32>,
                             noise: [Int8], start: Int) {
        noise.withUnsafeBufferPointer { noise in
            let mask = noise.count - 1
            var index = start & mask
            for pixel in 0..<source.count {
                let word = source[pixel], delta = Int32(noise[index])
                index = (index &+ 1) & mask
                let blue = min(max(Int32(word & 0xFF) + delta, 0), 255)
                let green = min(max(Int32(word >> 8 & 0xFF) + delta, 0), 255)
                let red = min(max(Int32(word >> 16 & 0xFF) + delta, 0), 255)
                target[pixel] = UInt32(blue) | UInt32(green) << 8 | UInt32(red) << 16 | (word & 0xFF00_0000)
            }
        }
    }

    /// 64 Ki samples of Gaussian noise with standard deviation `sigma` levels, or nil below half a
    /// level (no noise at ISO 100 and below).
    static func noiseTable(sigma: Double) -> [Int8]? {
        guard sigma >= 0.5 else { return nil }
        var generator = SplitMix(seed: 0x5EED)
        return (0..<65_536).map { _ in
            // Box–Muller.
            let u1 = max(generator.nextUnit(), 1e-12), u2 = generator.nextUnit()
            let gaussian = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
            return Int8(min(max((gaussian * sigma).rounded(), -127), 127))
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
    static func expose(_ pixels: [UInt32], by gains: (red: Double, green: Double, blue: Double), hdr: Bool = false) -> [UInt32] {
        if !hdr && abs(gains.red - 1) < 1e-9 && abs(gains.green - 1) < 1e-9 && abs(gains.blue - 1) < 1e-9 { return pixels }
        func table(_ gain: Double) -> [UInt32] {
            (0..<256).map { UInt32(min(255, (hdr ? VideoHDRState.toneMap(Double($0) * gain) : Double($0) * gain).rounded())) }
        }
        let red = table(gains.red), green = table(gains.green), blue = table(gains.blue)
        return pixels.map { word in
            blue[Int(word & 0xFF)] | green[Int(word >> 8 & 0xFF)] << 8 | red[Int(word >> 16 & 0xFF)] << 16 | (word & 0xFF00_0000)
        }
    }
}

/// What the sensor renders a frame with, read from the device once per frame.
struct RenderSettings {
    var generation: Int
    /// Light gathered relative to the metered exposure: scene light × exposure × torch × flash.
    var light: Double
    var blurRadius: Int
    var zoom: Double
    var balance: WhiteBalanceState
    var hdr: Bool
    /// Sensor noise in levels: none up to ISO 100, then 1.5 levels more per doubling.
    var noiseSigma: Double

    init(_ state: CaptureDevice.DeviceState, height: Int) {
        generation = state.sensor.generation
        light = state.sceneLight * state.exposure.relativeExposure * state.torch.gain * (state.flash.isFiring ? FlashState.gain : 1)
        blurRadius = state.focus.blurRadius(height: height)
        zoom = state.zoom.factor
        balance = state.whiteBalance
        hdr = state.hdr.isEnabled
        noiseSigma = 1.5 * max(0, log2(Double(state.exposure.effective.iso) / 100))
    }
}
