import Foundation
import Testing
@testable import CaptureKit

/// A file played as a camera, through the public API: identity, formats, typed errors, and the
/// frames a `VideoDataOutput` receives (pixels and timestamps).
@Suite("File cameras", .ownDevices)
struct FileCameraTests {
    /// A 160x120 PNG of one colour, made by GStreamer's own encoder.
    static func solidPNG(_ rgb: String, in directory: URL) throws -> URL {
        let file = directory.appendingPathComponent("solid-\(rgb).png")
        let output = try run("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "pattern=solid-color", "foreground-color=0xff\(rgb)",
                                                         "!", "video/x-raw,width=160,height=120", "!", "pngenc", "!",
                                                         "filesink", "location=\(file.path)"])
        try #require(FileManager.default.fileExists(atPath: file.path), "\(output)")
        return file
    }

    @Test("a file is one device by URL, by find(\"file:…\") and by uniqueID; never listed; its own size, unspecified position, digital zoom")
    func identity() throws {
        let directory = try temporaryDirectory()
        let png = try Self.solidPNG("ff0000", in: directory)
        let device = try CaptureDevice(fileURL: png)
        #expect(device.uniqueID == "file:" + png.path && device.route == "file" && device.position == .unspecified)
        #expect(device.localizedName == "solid-ff0000.png" && device.modelID == "file:PNG")
        #expect(device.formats.map(\.description) == ["160x120 bgra 30 fps"], "\(device.formats)")
        #expect(try CaptureDevice.find("file:" + png.path) == device && CaptureDevice(uniqueID: device.uniqueID) == device)
        #expect(!CaptureDevice.devices().contains(device) && CaptureDevice.default(for: .video) != device)
        #expect(device.zoomsInPipeline && device.isExposureModeSupported(.continuousAutoExposure) && !device.isExposureModeSupported(.custom))
        #expect(!device.isFocusModeSupported(.locked) && !device.hasTorch && !device.isWhiteBalanceModeSupported(.locked))
    }

    @Test("missing, unreadable-as-a-file and undecodable files are typed errors carrying the path")
    func errors() throws {
        let directory = try temporaryDirectory()
        let missing = directory.appendingPathComponent("missing.mp4")
        #expect { try CaptureDevice(fileURL: missing) } throws: { error in
            (error as? CaptureError)?.code == .fileUnreadable && (error as? CaptureError)?.value == missing.path
                && "\(error)".contains("no such file")
        }
        #expect { try CaptureDevice(fileURL: directory) } throws: { error in
            (error as? CaptureError)?.code == .fileUnreadable && "\(error)".contains("not a regular file")
        }
        let garbage = directory.appendingPathComponent("garbage.mkv")
        try Data([0x1A, 0x45, 0xDF, 0xA3] + [UInt8](repeating: 0x42, count: 4096)).write(to: garbage)
        #expect { try CaptureDevice(fileURL: garbage) } throws: { error in
            (error as? CaptureError)?.code == .fileUndecodable && (error as? CaptureError)?.value == garbage.path
        }
        #expect(throws: CaptureError.self) { try CaptureDevice.find("file:") }
    }

    @Test("an image camera delivers its pixels live: red stays red in BGRA, frames 1/30 s apart, at its own size")
    func imageFrames() async throws {
        let directory = try temporaryDirectory()
        let device = try CaptureDevice(fileURL: try Self.solidPNG("ff0000", in: directory))
        let output = VideoDataOutput()
        try output.setVideoSettings(.init(pixelFormat: .bgra))
        let test = try TestSession(preset: .high, device: device, outputs: [output])
        let stream = output.sampleBuffers(bufferingNewest: 8)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        var times: [Double] = []
        for await sample in stream {
            let pixel = try sample.withPlanes { planes in Array(planes[0].bytes[(60 * planes[0].bytesPerRow + 80 * 4)..<(60 * planes[0].bytesPerRow + 80 * 4 + 4)]) }
            #expect(pixel[2] > 240 && pixel[1] < 15 && pixel[0] < 15, "BGRA \(pixel)")
            #expect(sample.formatDescription.width == 160 && sample.formatDescription.height == 120)
            times.append(sample.presentationTime.seconds)
            if times.count == 10 { break }
        }
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { abs($0 - 1.0 / 30) < 0.002 }, "\(steps)")
    }

    @Test("a numbered image sequence plays its images in turn, in a loop, 1/30 s apart")
    func sequence() async throws {
        let directory = try temporaryDirectory()
        for (index, rgb) in ["ff0000", "00ff00", "0000ff"].enumerated() {
            try FileManager.default.moveItem(at: try Self.solidPNG(rgb, in: directory), to: directory.appendingPathComponent("shot-0\(index + 1).png"))
        }
        let device = try CaptureDevice(fileURL: directory.appendingPathComponent("shot-%02d.png"))
        #expect(device.formats.map(\.description) == ["160x120 bgra 30 fps"])
        let output = VideoDataOutput()
        try output.setVideoSettings(.init(pixelFormat: .bgra))
        let test = try TestSession(preset: .high, device: device, outputs: [output])
        let stream = output.sampleBuffers(bufferingNewest: 16)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        var colours: [String] = [], times: [Double] = []
        for await sample in stream {
            let pixel = try sample.withPlanes { planes in Array(planes[0].bytes[0..<4]) }
            colours.append(pixel[2] > 200 ? "r" : pixel[1] > 200 ? "g" : pixel[0] > 200 ? "b" : "?")
            times.append(sample.presentationTime.seconds)
            if colours.count == 8 { break }
        }
        #expect(colours == ["r", "g", "b", "r", "g", "b", "r", "g"], "\(colours)")
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 0.002 }, "\(times)")
    }

    @Test("a sequence's path has one %d or %0Nd; anything else with % is refused before GStreamer formats it")
    func sequencePatterns() throws {
        #expect(try ImageSequencePattern("/a/shot-%04d.png")?.path(for: 7) == "/a/shot-0007.png")
        #expect(try ImageSequencePattern("/a/%d.jpg")?.path(for: 12) == "/a/12.jpg")
        #expect(try ImageSequencePattern("/a/clip.mp4") == nil)
        for bad in ["/a/%s.png", "/a/%4d.png", "/a/%d-%d.png", "/a/%012d.png", "/a/100%.png", "/a/%n"] {
            #expect(throws: CaptureError.self, "\(bad)") { try ImageSequencePattern(bad) }
        }
    }
}
