import Foundation
import Testing
@testable import CaptureKit

@Suite("StillImageOutput", .ownDevices, .serialized)
struct StillImageOutputTests {
    @Test("a JPEG still carries EXIF that exiftool reads and validates without warnings")
    func jpegExif() async throws {
        let output = StillImageOutput()
        let test = try TestSession(outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let connection = try #require(output.connection(with: .video))
        connection.videoOrientation = .portrait
        let sample = try await output.captureStillImage(from: connection)
        let file = try temporaryDirectory().appendingPathComponent("still.jpg")
        try StillImageOutput.jpegStillImageData(from: sample).write(to: file)
        let tags = try exifTags(file, ["Orientation", "Make", "Model", "ExifImageWidth", "ExifImageHeight", "DateTimeOriginal"])
        #expect(tags["Orientation"] == "6")
        #expect(tags["Make"] == "CaptureKit")
        #expect(tags["Model"] == "Virtual Camera")
        #expect(tags["ExifImageWidth"] == "640")
        #expect(tags["ExifImageHeight"] == "480")
        let date = try #require(tags["DateTimeOriginal"])
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        let taken = try #require(formatter.date(from: date))
        #expect(abs(taken.timeIntervalSinceNow) < 60)
        let validation = try run("/usr/bin/exiftool", ["-validate", "-warning", "-error", "-a", file.path])
        #expect(validation.contains("Validate                        : OK"), "\(validation)")
        #expect(!validation.contains("Warning"), "\(validation)")
    }

    @Test("EXIF Orientation follows every orientation and mirroring; pixels stay unrotated")
    func allOrientations() async throws {
        let output = StillImageOutput()
        let test = try TestSession(outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let connection = try #require(output.connection(with: .video))
        let directory = try temporaryDirectory()
        let expected: [(VideoOrientation, Bool, Int)] = [
            (.landscapeRight, false, 1), (.landscapeRight, true, 2), (.landscapeLeft, false, 3), (.landscapeLeft, true, 4),
            (.portraitUpsideDown, true, 5), (.portrait, false, 6), (.portrait, true, 7), (.portraitUpsideDown, false, 8),
        ]
        for (orientation, mirrored, exif) in expected {
            connection.videoOrientation = orientation
            connection.isVideoMirrored = mirrored
            let sample = try await output.captureStillImage(from: connection)
            #expect(sample.attachments.exifOrientation == exif)
            #expect(sample.formatDescription.width == 640 && sample.formatDescription.height == 480)
            let file = directory.appendingPathComponent("\(orientation)-\(mirrored).jpg")
            try StillImageOutput.jpegStillImageData(from: sample).write(to: file)
            let tags = try exifTags(file, ["Orientation", "ImageWidth", "ImageHeight"])
            #expect(tags["Orientation"] == String(exif), "\(orientation) mirrored=\(mirrored)")
            #expect(tags["ImageWidth"] == "640")
            #expect(tags["ImageHeight"] == "480")
        }
    }

    @Test("a still is the first frame presented after the request, never an older one")
    func stillIsNewerThanRequest() async throws {
        let output = StillImageOutput()
        try output.setOutputSettings(.uncompressed(.bgra))
        let test = try TestSession(outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let connection = try #require(output.connection(with: .video))
        let runtime = try #require(test.session.runtime)
        for _ in 0..<5 {
            try await Task.sleep(for: .milliseconds(45))
            let requested = try #require(runtime.pipeline.runningTime)
            let sample = try await output.captureStillImage(from: connection)
            let presented = UInt64(sample.presentationTime.nanoseconds)
            #expect(presented >= requested)
            // The next frame, not a later one: within one frame interval (33 ms) plus slack.
            #expect(presented - requested < 45_000_000, "waited \(presented - requested) ns")
        }
    }

    @Test("JPEG stills keep full range: the scene's white and black patches decode as white and black")
    func jpegFullRange() async throws {
        let output = StillImageOutput()
        try output.setOutputSettings(.jpeg(quality: 0.95))
        let test = try TestSession(outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let sample = try await output.captureStillImage(from: try #require(output.connection(with: .video)))
        let directory = try temporaryDirectory()
        let jpeg = directory.appendingPathComponent("range.jpg"), rgb = directory.appendingPathComponent("range.rgb")
        try StillImageOutput.jpegStillImageData(from: sample).write(to: jpeg)
        try run("/usr/bin/gst-launch-1.0", ["-q", "filesrc", "location=\(jpeg.path)", "!", "jpegdec", "!", "videoconvert", "!",
                                            "video/x-raw,format=RGB", "!", "filesink", "location=\(rgb.path)"])
        let pixels = try Data(contentsOf: rgb)
        #expect(pixels.count == 640 * 480 * 3)
        func pixel(_ index: Int) -> [UInt8] {
            let rect = VirtualScene.patchRect(index: index, row: 0, width: 640, height: 480)
            let offset = ((rect.y.lowerBound + 10) * 640 + rect.x.lowerBound + 10) * 3
            return Array(pixels[offset..<(offset + 3)])
        }
        #expect(pixel(5).allSatisfy { $0 >= 250 }, "white decodes as \(pixel(5))")
        #expect(pixel(0).allSatisfy { $0 <= 5 }, "black decodes as \(pixel(0))")
        #expect(pixel(3).allSatisfy { abs(Int($0) - 153) <= 3 }, "gray 153 decodes as \(pixel(3))")
    }

    @Test("uncompressed stills deliver the virtual camera's scene in the requested pixel format")
    func uncompressedPixels() async throws {
        let output = StillImageOutput()
        try output.setOutputSettings(.uncompressed(.bgra))
        let test = try TestSession(outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let sample = try await output.captureStillImage(from: try #require(output.connection(with: .video)))
        #expect(sample.formatDescription.pixelFormat == .bgra)
        try sample.withPlanes { planes in
            let plane = planes[0]
            // The white gray patch and the red colour patch of the scene.
            let white = VirtualScene.patchRect(index: 5, row: 0, width: 640, height: 480)
            let red = VirtualScene.patchRect(index: 0, row: 1, width: 640, height: 480)
            func pixel(_ x: Int, _ y: Int) -> [UInt8] {
                (0..<4).map { plane.bytes[y * plane.bytesPerRow + x * 4 + $0] }
            }
            #expect(pixel(white.x.lowerBound + 3, white.y.lowerBound + 3) == [255, 255, 255, 255])
            #expect(pixel(red.x.lowerBound + 3, red.y.lowerBound + 3) == [0, 0, 255, 255])
        }
        #expect(throws: CaptureError.self) { try StillImageOutput.jpegStillImageData(from: sample) }
    }

    @Test("uncompressed YCbCr stills come in video range ('420v', the default) or full range ('420f'), as the sample says", arguments: [PixelFormat.nv12, .i420])
    func uncompressedRanges(format: PixelFormat) async throws {
        let output = StillImageOutput()
        let test = try TestSession(outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        var levels: [ColorRange: (white: UInt8, black: UInt8)] = [:]
        for range in ColorRange.allCases {
            try output.setOutputSettings(.uncompressed(format, range: range))
            try await Task.sleep(for: .milliseconds(1))  // let a running session take the new branch
            let sample = try await output.captureStillImage(from: try #require(output.connection(with: .video)))
            #expect(sample.formatDescription.pixelFormat == format && sample.formatDescription.colorRange == range)
            levels[range] = try sample.withPlanes { planes in
                let luma = planes[0]
                func y(_ index: Int) -> UInt8 {
                    let rect = VirtualScene.patchRect(index: index, row: 0, width: 640, height: 480)
                    return luma.bytes[(rect.y.lowerBound + 3) * luma.bytesPerRow + rect.x.lowerBound + 3]
                }
                return (y(5), y(0))
            }
        }
        #expect(levels[.video].map { $0.white == 235 && $0.black == 16 } == true, "video range: \(String(describing: levels[.video]))")
        #expect(levels[.full].map { $0.white == 255 && $0.black == 0 } == true, "full range: \(String(describing: levels[.full]))")
        #expect(StillImageSettings.uncompressed(.nv12) == .uncompressed(.nv12, range: .video))
    }

    @Test("a still's attachments carry the values its EXIF says, as typed values, for JPEG and uncompressed stills")
    func stillMetadata() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let output = StillImageOutput()
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [output])
        try await test.session.checked.startRunning()
        defer {
            test.session.stopRunning()
            device.restoreDefaultControls()
        }
        try device.lockForConfiguration()
        try device.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 250), iso: 400)
        try device.checked.setWhiteBalanceModeLocked(with: .init(redGain: 1, greenGain: 1.5, blueGain: 2))
        try device.checked.setFocusModeLocked(lensPosition: 0.3)
        try device.setVideoZoomFactor(2)
        device.unlockForConfiguration()
        let connection = try #require(output.connection(with: .video))
        connection.videoOrientation = .portrait
        let before = Date()
        let sample = try await output.captureStillImage(from: connection)
        let metadata = try #require(sample.attachments.stillMetadata)
        #expect(metadata.exposureDuration == CaptureTime(value: 1, timescale: 250) && metadata.iso == 400)
        #expect(metadata.isExposureManual == true && metadata.isWhiteBalanceManual == true)
        #expect(metadata.whiteBalanceGains == .init(redGain: 1, greenGain: 1.5, blueGain: 2) && metadata.lensPosition == 0.3)
        #expect(metadata.digitalZoomRatio == 2 && metadata.fNumber == 2 && metadata.exifOrientation == 6)
        #expect(metadata.flashMode == .off && !metadata.isFlashFired && metadata.model == "Virtual Camera")
        #expect(abs(metadata.date.timeIntervalSince(before)) < 5)
        let file = try temporaryDirectory().appendingPathComponent("metadata.jpg")
        try StillImageOutput.jpegStillImageData(from: sample).write(to: file)
        let exif = try exifTags(file, ["ExposureTime", "ISO", "FNumber", "DigitalZoomRatio", "Orientation", "WhiteBalance", "Model"])
        #expect(exif["ExposureTime"] == "0.004" && exif["ISO"] == "400" && exif["FNumber"] == "2", "\(exif)")
        #expect(exif["DigitalZoomRatio"] == "2" && exif["Orientation"] == "6" && exif["WhiteBalance"] == "1" && exif["Model"] == "Virtual Camera", "\(exif)")

        try output.setOutputSettings(.uncompressed(.bgra))
        let raw = try await output.captureStillImage(from: connection)
        #expect(raw.attachments.stillMetadata?.iso == 400 && raw.attachments.stillMetadata?.exifOrientation == 6)
    }

    @Test("a still carries the faces the session's metadata output sees, and none without one")
    func stillFaces() async throws {
        let still = StillImageOutput()
        let metadata = MetadataOutput()
        let test = try TestSession(preset: .cif352x288, outputs: [still, metadata])
        // The metadata branch stays out of the pipeline, so only the faces handed over below are seen.
        let metadataConnection = try #require(metadata.connection(with: .video))
        metadataConnection.isEnabled = false
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let connection = try #require(still.connection(with: .video))
        #expect(try await still.captureStillImage(from: connection).attachments.stillMetadata?.faces == [])
        let face = FaceObject(faceID: 7, bounds: CGRect(x: 0.4, y: 0.3, width: 0.2, height: 0.25), rollAngle: 0, yawAngle: 0,
                              time: CaptureTime(value: 1, timescale: 30), duration: .zero)
        metadata.deliver([face], from: metadataConnection)
        #expect(try await still.captureStillImage(from: connection).attachments.stillMetadata?.faces == [face])
    }

    @Test("isCapturingStillImage is true while a still is pending and false after")
    func capturingFlag() async throws {
        let output = StillImageOutput()
        let test = try TestSession(outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let connection = try #require(output.connection(with: .video))
        #expect(!output.isCapturingStillImage)
        let done = AsyncStream<Void>.makeStream()
        try output.captureStillImage(from: connection) { _, _ in done.continuation.finish() }
        #expect(output.isCapturingStillImage)
        for await _ in done.stream {}
        #expect(await waitFor { !output.isCapturingStillImage })
    }
}

/// Reads EXIF tags with exiftool, numeric values.
func exifTags(_ file: URL, _ names: [String]) throws -> [String: String] {
    let text = try run("/usr/bin/exiftool", ["-n", "-s", "-s"] + names.map { "-\($0)" } + [file.path])
    var tags: [String: String] = [:]
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2 { tags[parts[0]] = parts[1] }
    }
    return tags
}
