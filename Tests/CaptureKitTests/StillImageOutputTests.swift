import Foundation
import Testing
@testable import CaptureKit

@Suite("StillImageOutput", .serialized)
struct StillImageOutputTests {
    @Test("a JPEG still carries EXIF that exiftool reads and validates")
    func jpegExif() async throws {
        let output = StillImageOutput()
        let test = try TestSession(outputs: [output])
        try await test.session.startRunning()
        defer { test.session.stopRunning() }
        let connection = try #require(output.connection(with: .video))
        connection.videoOrientation = .portrait
        let sample = try await output.captureStillImage(from: connection)
        let jpeg = try StillImageOutput.jpegStillImageData(from: sample)
        let file = try temporaryDirectory().appendingPathComponent("still.jpg")
        try jpeg.write(to: file)
        let tags = try run("/usr/bin/exiftool", ["-n", "-s", "-Orientation", "-Make", "-Model", "-ImageWidth", "-ImageHeight", "-DateTimeOriginal", file.path])
        #expect(tags.contains("Orientation                     : 6"))
        #expect(tags.contains("Make                            : CaptureKit"))
        #expect(tags.contains("Model                           : Virtual Camera"))
        #expect(tags.contains("ImageWidth                      : 640"))
        #expect(tags.contains("ImageHeight                     : 480"))
        #expect(tags.contains("DateTimeOriginal"))
        let validation = try run("/usr/bin/exiftool", ["-validate", "-warning", "-error", "-a", file.path])
        #expect(validation.contains("Validate                        : OK"), "\(validation)")
        #expect(!validation.contains("Warning"), "\(validation)")
    }
}
