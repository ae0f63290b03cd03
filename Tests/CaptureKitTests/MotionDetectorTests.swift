import Foundation
import Testing
@_spi(Benchmark) @testable import CaptureKit

/// The motion detector alone, on the virtual camera's scene rendered through its optics
/// (`VirtualCameraSensor.expose`) and reduced to gray as the metadata branch's conversion does:
/// real motion is found where it is, and a change of light over the whole frame is not motion.
/// No device-settings hint here (every frame is `settled`): the light model alone must hold.
@Suite("Motion detector")
struct MotionDetectorTests {
    static let width = 1280, height = 720

    /// The scene at `gains` (red, green, blue), with optional patches drawn on top and
    /// Gaussian-like noise of `noise` levels, in BT.601 luma.
    static func frame(gains: (Double, Double, Double) = (1, 1, 1), patches: [(CGRect, UInt8)] = [], noise: Double = 0, seed: UInt64 = 1) -> [UInt8] {
        let scene = VirtualScene.scene(width: width, height: height)
        let exposed = VirtualCameraSensor.expose(scene.pixels, by: gains)
        var generator = SplitMix(seed: seed)
        var gray = exposed.map { word -> UInt8 in
            let b = Double(word & 0xFF), g = Double(word >> 8 & 0xFF), r = Double(word >> 16 & 0xFF)
            var luma = 0.299 * r + 0.587 * g + 0.114 * b
            if noise > 0 {
                // The sum of four uniforms: close enough to Gaussian for a sensor's noise.
                luma += noise * ((0..<4).reduce(0.0) { sum, _ in sum + generator.nextUnit() } - 2) * 1.73
            }
            return UInt8(min(255, max(0, luma.rounded())))
        }
        for (rect, level) in patches {
            for y in Int(rect.minY * Double(height))..<Int(rect.maxY * Double(height)) {
                for x in Int(rect.minX * Double(width))..<Int(rect.maxX * Double(width)) { gray[y * width + x] = level }
            }
        }
        return gray
    }

    /// Runs `frames` through one detector 200 ms apart; the regions of each after the first.
    static func analyse(_ frames: [[UInt8]], settings: MotionDetectionSettings = .init(), settled: [Bool]? = nil) -> [[MotionDetector.Region]] {
        var detector = MotionDetector()
        detector.configure(settings)
        return frames.enumerated().map { index, frame in
            frame.withUnsafeBytes { bytes in
                detector.analyse(bytes, width: width, height: height, bytesPerRow: width, time: UInt64(index) * 200_000_000,
                                 settled: settled?[index] ?? true)
            }
        }.dropFirst().map { $0 }
    }

    /// In the scene's empty middle: clear of the codes, the detail and the patches.
    static let patch = CGRect(x: 0.33, y: 0.12, width: 0.15, height: 0.3)

    @Test("a still scene has no motion; a patch that enters is found where it is, and again where it leaves")
    func patchEntersAndLeaves() throws {
        let still = Self.frame(), with = Self.frame(patches: [(Self.patch, 32)])
        let results = Self.analyse([still, still, with, with, still])
        #expect(results[0].isEmpty)
        let entered = try #require(results[1].first, "the patch's arrival")
        #expect(results[1].count == 1, "\(results[1])")
        // Bounds within a cell (16 px) of the patch.
        #expect(abs(entered.bounds.minX - Self.patch.minX) < 0.02 && abs(entered.bounds.maxX - Self.patch.maxX) < 0.02, "\(entered.bounds)")
        #expect(abs(entered.bounds.minY - Self.patch.minY) < 0.03 && abs(entered.bounds.maxY - Self.patch.maxY) < 0.03, "\(entered.bounds)")
        #expect(abs(entered.area - 0.045) < 0.01 && entered.score > 0.2, "area \(entered.area), score \(entered.score)")
        #expect(results[2].isEmpty, "a patch standing still is not motion")
        #expect(results[3].first.map { abs($0.bounds.midX - Self.patch.midX) < 0.02 } == true, "\(results[3])")
    }

    @Test("the moving square is motion in its band, and nothing once the band is ignored")
    func squareAndIgnoredRegion() {
        let scene = VirtualScene.scene(width: Self.width, height: Self.height)
        let band = scene.movingBand, side = Double(band.count)
        func square(at x: Double) -> [UInt8] {
            Self.frame(patches: [(CGRect(x: x, y: Double(band.lowerBound) / Double(Self.height), width: side / Double(Self.width), height: side / Double(Self.height)), 255)])
        }
        let frames = [square(at: 0.1), square(at: 0.2), square(at: 0.3)]
        let seen = Self.analyse(frames)
        #expect(seen.allSatisfy { $0.contains { $0.bounds.minY > 0.8 } }, "\(seen)")
        let ignored = Self.analyse(frames, settings: .init(ignoredRegions: [CGRect(x: 0, y: 0.85, width: 1, height: 0.15)]))
        #expect(ignored.allSatisfy { $0.isEmpty }, "\(ignored)")
        let included = Self.analyse(frames, settings: .init(includedRegions: [CGRect(x: 0, y: 0, width: 1, height: 0.5)]))
        #expect(included.allSatisfy { $0.isEmpty }, "\(included)")
    }

    @Test("exposure steps of one stop either way, clipping the whites, are not motion")
    func exposureSteps() {
        let frames = [Self.frame(), Self.frame(gains: (2, 2, 2)), Self.frame(), Self.frame(gains: (0.5, 0.5, 0.5)), Self.frame(gains: (1.5, 1.5, 1.5))]
        let results = Self.analyse(frames)
        #expect(results.allSatisfy { $0.isEmpty }, "\(results)")
    }

    @Test("a torch turned on and off (1.6 times the light) is not motion, and a patch entering with it still is")
    func torch() throws {
        let results = Self.analyse([Self.frame(), Self.frame(gains: (1.6, 1.6, 1.6)), Self.frame()])
        #expect(results.allSatisfy { $0.isEmpty }, "\(results)")
        let both = Self.analyse([Self.frame(), Self.frame(gains: (1.6, 1.6, 1.6), patches: [(Self.patch, 32)])])
        let found = try #require(both[0].first, "the patch entering as the torch came on")
        #expect(abs(found.bounds.midX - Self.patch.midX) < 0.02 && both[0].count == 1, "\(both[0])")
    }

    @Test("auto exposure settling from two stops under, 15 % per analysed frame, is not motion")
    func exposureSettling() {
        var gain = 0.25, frames: [[UInt8]] = []
        while gain < 1 {
            frames.append(Self.frame(gains: (gain, gain, gain)))
            gain *= 1.15
        }
        frames.append(Self.frame())
        let results = Self.analyse(frames)
        #expect(results.allSatisfy { $0.isEmpty }, "\(results.map(\.count))")
    }

    @Test("a white balance drifting as auto white balance moves (3 % per analysed frame) is not motion, nor is a sudden change to tungsten gains")
    func whiteBalance() {
        var frames: [[UInt8]] = []
        for step in 0...12 {
            let red = pow(1.03, Double(step)), blue = pow(0.97, Double(step))
            frames.append(Self.frame(gains: (red, 1, blue)))
        }
        let drift = Self.analyse(frames)
        #expect(drift.allSatisfy { $0.isEmpty }, "\(drift.map(\.count))")
        // Tungsten gains at once: the colour patches change luma differently from the grays.
        let sudden = [Self.frame(), Self.frame(gains: (1.8, 1, 0.6)), Self.frame(gains: (1.8, 1, 0.6)), Self.frame()]
        let results = Self.analyse(sudden)
        #expect(results.allSatisfy { $0.isEmpty }, "\(results)")
    }

    @Test("a frame taken while the device's settings change only becomes the reference")
    func unsettledFrames() {
        let still = Self.frame(), with = Self.frame(patches: [(Self.patch, 32)])
        #expect(Self.analyse([still, with, with], settled: [true, false, true]).allSatisfy { $0.isEmpty })
        #expect(Self.analyse([still, with, with])[0].count == 1)
    }

    @Test("sensor noise at ISO 800 is not motion; a patch in it is found")
    func noise() throws {
        let frames = (0..<4).map { Self.frame(noise: 4.5, seed: UInt64($0 + 1)) }
        #expect(Self.analyse(frames).allSatisfy { $0.isEmpty })
        let moved = Self.analyse([frames[0], Self.frame(patches: [(Self.patch, 32)], noise: 4.5, seed: 9)])
        #expect(moved[0].count == 1, "\(moved)")
    }

    @Test("sensitivity and minimum area decide what is small or faint enough to leave out")
    func sensitivityAndArea() {
        let faint = [Self.frame(), Self.frame(patches: [(Self.patch, 128 + 14)])]
        #expect(!Self.analyse(faint, settings: .init(sensitivity: 1))[0].isEmpty)
        #expect(Self.analyse(faint, settings: .init(sensitivity: 0))[0].isEmpty)
        let small = [Self.frame(), Self.frame(patches: [(CGRect(x: 0.4, y: 0.2, width: 0.05, height: 0.08), 32)])]
        #expect(!Self.analyse(small)[0].isEmpty)
        #expect(Self.analyse(small, settings: .init(minimumArea: 0.01))[0].isEmpty)
    }

    @Test("settings out of range are refused, naming the value and the range")
    func validation() {
        #expect(throws: CaptureError.invalidSetting(name: "motion sensitivity", value: "1.5", valid: "0 to 1")) {
            try MotionDetectionSettings(sensitivity: 1.5).validate()
        }
        #expect(throws: CaptureError.self) { try MotionDetectionSettings(analysisFrameRate: 0).validate() }
        #expect(throws: CaptureError.self) { try MotionDetectionSettings(ignoredRegions: [CGRect(x: 0.5, y: 0, width: 0.8, height: 1)]).validate() }
        #expect(throws: CaptureError.self) { try MotionDetectionSettings(minimumArea: .nan).validate() }
    }

    @Test("frames are analysed at the settings' rate")
    func rate() {
        var detector = MotionDetector()
        detector.configure(.init(analysisFrameRate: 5))
        let frame = Self.frame()
        var analysed = 0
        for index in 0..<60 {
            let time = UInt64(index) * 33_333_333
            guard detector.isDue(time) else { continue }
            analysed += 1
            _ = frame.withUnsafeBytes { detector.analyse($0, width: Self.width, height: Self.height, bytesPerRow: Self.width, time: time) }
        }
        #expect(analysed == 10, "two seconds at 30 fps analysed at 5 fps")
    }
}
