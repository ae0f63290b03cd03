import Foundation
import Testing
@testable import Detectors

/// Faces in real photographs that Debian ships, read with OpenCV's cascades; none in noise.
///
/// The photographs come from scikit-image's data folder in the Debian package `python3-skimage`
/// (apt-get install python3-skimage), /usr/lib/python3/dist-packages/skimage/data/:
/// - astronaut.png: Eileen Collins, 512 x 512, one frontal face.
/// - camera.png: "cameraman", 512 x 512, one face in profile looking right.
/// They are turned to 8-bit gray by GStreamer (gstreamer1.0-tools, -plugins-base, -plugins-good).
@Suite("Face detector")
struct FaceDetectorTests {
    static let data = "/usr/lib/python3/dist-packages/skimage/data"

    /// Landmarks measured by eye on the photographs (pixels): the box must hold each.
    static let astronaut: [(Double, Double)] = [(205, 101), (246, 104), (224, 126), (224, 145)] // eyes, nose tip, mouth
    static let cameraman: [(Double, Double)] = [(235, 146), (252, 165), (237, 180)] // eye, nose tip, mouth

    /// A PNG as 8-bit gray through `gst-launch-1.0 ... ! videoconvert ! video/x-raw,format=GRAY8 ! filesink`.
    static func gray(_ name: String, width: Int, height: Int) throws -> TestImage {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("faces-\(UUID().uuidString).gray")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        process.arguments = ["-q", "filesrc", "location=\(data)/\(name)", "!", "pngdec", "!", "videoconvert", "!",
                             "video/x-raw,format=GRAY8", "!", "filesink", "location=\(output.path)"]
        try process.run()
        process.waitUntilExit()
        let bytes = try [UInt8](Data(contentsOf: output))
        let stride = (width + 3) & ~3 // GStreamer pads GRAY8 rows to 4 bytes
        guard process.terminationStatus == 0, bytes.count == stride * height else {
            throw NSError(domain: "gst-launch", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: "\(name): \(bytes.count) bytes"])
        }
        var image = TestImage(width: width, height: height)
        for y in 0..<height { image.pixels.replaceSubrange(y * width..<(y + 1) * width, with: bytes[y * stride..<y * stride + width]) }
        return image
    }

    static func detect(_ detector: FaceDetector, _ image: TestImage, passes: FaceDetector.Passes = .live) -> [FaceDetector.Face] {
        image.pixels.withUnsafeBytes { detector.detect($0, width: image.width, height: image.height, rowStride: image.width, passes: passes) }
    }

    static func contains(_ face: FaceDetector.Face, _ points: [(Double, Double)]) -> Bool {
        let b = face.bounds
        return points.allSatisfy { b.x <= $0.0 && $0.0 <= b.x + b.width && b.y <= $0.1 && $0.1 <= b.y + b.height }
    }

    /// Where a point of an image lands in `TestImage.rotated(degrees)` (clockwise on screen).
    static func rotate(_ points: [(Double, Double)], _ degrees: Double, width: Int, height: Int) -> [(Double, Double)] {
        let a = degrees * .pi / 180, c = cos(a), s = sin(a)
        let w = (abs(Double(width) * c) + abs(Double(height) * s)).rounded(.up), h = (abs(Double(width) * s) + abs(Double(height) * c)).rounded(.up)
        return points.map { p in
            let dx = p.0 + 0.5 - Double(width) / 2, dy = p.1 + 0.5 - Double(height) / 2
            return (c * dx - s * dy + w / 2 - 0.5, s * dx + c * dy + h / 2 - 0.5)
        }
    }

    static func mirrored(_ image: TestImage) -> TestImage {
        var output = image
        for y in 0..<image.height { for x in 0..<image.width { output[x, y] = image[image.width - 1 - x, y] } }
        return output
    }

    @Test func cascadesLoad() throws {
        #expect(FaceDetector.isAvailable)
        let detector = try #require(FaceDetector())
        #expect(detector.availablePasses == .thorough)
        #expect(FaceDetector.libraryVersion.hasPrefix("4."))
        #expect(FaceDetector(cascadeDirectory: "/nonexistent") == nil)
    }

    @Test func frontalFace() throws {
        let detector = try #require(FaceDetector())
        let image = try Self.gray("astronaut.png", width: 512, height: 512)
        for passes: FaceDetector.Passes in [.live, .thorough] {
            let faces = Self.detect(detector, image, passes: passes)
            try #require(faces.count == 1, "\(passes): \(faces)")
            #expect(Self.contains(faces[0], Self.astronaut), "\(faces[0])")
            #expect((70...130).contains(faces[0].bounds.width) && faces[0].bounds.width == faces[0].bounds.height)
            #expect(faces[0].yawAngle == 0 && faces[0].rollAngle == 0)
        }
    }

    /// A 1280 x 720 frame (scaled down to 640 x 360 inside): boxes come back in frame pixels.
    @Test func faceInHDFrame() throws {
        let detector = try #require(FaceDetector())
        let frame = try Self.gray("astronaut.png", width: 512, height: 512).scaled(1.25).placed(in: 1280, 720, x: 400, y: 40, background: 128)
        let faces = Self.detect(detector, frame)
        try #require(faces.count == 1, "\(faces)")
        #expect(Self.contains(faces[0], Self.astronaut.map { (($0.0 + 0.5) * 1.25 - 0.5 + 400, ($0.1 + 0.5) * 1.25 - 0.5 + 40) }), "\(faces[0])")
        #expect((90...160).contains(faces[0].bounds.width))
    }

    /// Rows padded past the width give the same faces as contiguous ones.
    @Test func rowStride() throws {
        let detector = try #require(FaceDetector())
        let image = try Self.gray("astronaut.png", width: 512, height: 512)
        var padded = [UInt8](repeating: 0, count: 600 * 512)
        for y in 0..<512 { padded.replaceSubrange(y * 600..<y * 600 + 512, with: image.pixels[y * 512..<(y + 1) * 512]) }
        let faces = padded.withUnsafeBytes { detector.detect($0, width: 512, height: 512, rowStride: 600) }
        #expect(faces == Self.detect(detector, image))
    }

    @Test(arguments: [30.0, -30.0])
    func rolledFace(degrees: Double) throws {
        let detector = try #require(FaceDetector())
        let image = try Self.gray("astronaut.png", width: 512, height: 512).rotated(degrees)
        let faces = Self.detect(detector, image, passes: [.frontal, .roll])
        try #require(faces.count == 1, "\(faces)")
        #expect(faces[0].rollAngle == degrees && faces[0].yawAngle == 0)
        #expect(Self.contains(faces[0], Self.rotate(Self.astronaut, degrees, width: 512, height: 512)), "\(faces[0])")
    }

    /// The cameraman's profile: missed by the frontal cascade, found by the profile pass, mirrored too.
    @Test func profileFace() throws {
        let detector = try #require(FaceDetector())
        let image = try Self.gray("camera.png", width: 512, height: 512)
        #expect(Self.detect(detector, image).isEmpty)
        for mirror in [false, true] {
            let faces = Self.detect(detector, mirror ? Self.mirrored(image) : image, passes: [.frontal, .profile])
            try #require(faces.count == 1, "mirrored \(mirror): \(faces)")
            #expect(faces[0].yawAngle == (mirror ? -90 : 90))
            #expect(Self.contains(faces[0], mirror ? Self.cameraman.map { (511 - $0.0, $0.1) } : Self.cameraman), "\(faces[0])")
        }
        let thorough = Self.detect(detector, image, passes: .thorough)
        try #require(thorough.count == 1, "\(thorough)")
        #expect(thorough[0].yawAngle == 90 && Self.contains(thorough[0], Self.cameraman), "\(thorough[0])")
    }

    /// Noise, blurred noise, a gradient, a flat grey: no face in any pass.
    @Test func noFalsePositives() throws {
        let detector = try #require(FaceDetector())
        var gradient = TestImage(width: 640, height: 480)
        for y in 0..<480 { for x in 0..<640 { gradient[x, y] = UInt8((x * 255 / 639 + y * 255 / 479) / 2) } }
        let noise = TestImage(width: 640, height: 480, fill: 128).noisy(60)
        let images = [("noise", noise), ("blurred noise", TestImage(width: 320, height: 240, fill: 128).noisy(60).blurred(1).scaled(2)),
                      ("gradient", gradient), ("flat", TestImage(width: 640, height: 480, fill: 90))]
        for (name, image) in images {
            #expect(Self.detect(detector, image, passes: .thorough).isEmpty, "\(name)")
        }
    }

    @Test func invalidBuffers() throws {
        let detector = try #require(FaceDetector())
        let pixels = [UInt8](repeating: 0, count: 100)
        pixels.withUnsafeBytes { buffer in
            #expect(detector.detect(buffer, width: 10, height: 10, rowStride: 9).isEmpty)
            #expect(detector.detect(buffer, width: 20, height: 10, rowStride: 20).isEmpty) // too short
            #expect(detector.detect(buffer, width: 0, height: 10, rowStride: 10).isEmpty)
            #expect(detector.detect(buffer, width: 10, height: 10, rowStride: 10, passes: []).isEmpty)
        }
        #expect(detector.detect(UnsafeRawBufferPointer(start: nil, count: 0), width: 1, height: 1, rowStride: 1).isEmpty)
    }

    /// One detector shared by concurrent tasks: the mutex serializes them, all agree.
    @Test func sharedAcrossTasks() async throws {
        let detector = try #require(FaceDetector())
        let image = try Self.gray("astronaut.png", width: 512, height: 512)
        let expected = Self.detect(detector, image)
        let results = await withTaskGroup(of: [FaceDetector.Face].self) { group in
            for _ in 0..<4 { group.addTask { Self.detect(detector, image) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 4 && results.allSatisfy { $0 == expected })
    }
}
