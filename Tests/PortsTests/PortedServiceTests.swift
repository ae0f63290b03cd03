import CaptureKit
import Foundation
import Testing

/// The camera-manager and 2024-AVCam-style ports, run on the virtual camera and microphone:
/// photos judged by exiftool, movies by ffprobe.
extension SharedDevices {
    @Suite("Ported camera services", .serialized)
    struct PortedServiceTests {
        @Test("CameraController (session queue, discovery, PhotoOutput, MovieFileOutput) takes a portrait photo and records a movie with sound")
        func cameraController() async throws {
            let controller = CameraController()
            controller.start()
            defer { controller.stop() }
            #expect(await ManualControlsPortTests.eventually { controller.session.isRunning })
            #expect(controller.session.inputs.count == 2, "camera and microphone")

            let photo = Found()
            var photoData: Data?
            controller.photoFinished = { data in
                photoData = data
                photo.add("done")
            }
            controller.capturePhoto(flash: .on)
            _ = await photo.wait { !$0.isEmpty }
            let data = try #require(photoData)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("port-\(UUID().uuidString).jpg").path
            try data.write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let tags = try Tools.exiftool(path, ["Orientation", "Flash", "ImageWidth", "Make"])
            #expect(tags["Orientation"] == "6", "videoRotationAngle 90 is portrait: \(tags)")
            #expect(tags["Flash"].map { Int($0).map { $0 & 1 == 1 } ?? false } == true, "the photo's flashMode .on fired the back camera's flash: \(tags)")
            #expect(tags["Make"] == "CaptureKit", "\(tags)")

            let movie = FileManager.default.temporaryDirectory.appendingPathComponent("port-\(UUID().uuidString).mp4")
            defer { try? FileManager.default.removeItem(at: movie) }
            let finished = Found()
            controller.movieFinished = { url, error in finished.add("\(url.path) \(error.map { "\($0)" } ?? "ok")") }
            controller.toggleMovieRecording(to: movie)
            try await Task.sleep(for: .milliseconds(1500))
            controller.toggleMovieRecording(to: movie)
            let done = await finished.wait { !$0.isEmpty }
            #expect(done == ["\(movie.path) ok"])
            #expect(try Tools.streams(movie.path).sorted() == ["audio", "video"])

            controller.zoom(to: 2)
            controller.focus(at: CGPoint(x: 0.3, y: 0.3))
            let device = try #require(controller.videoDeviceInput?.device)
            #expect(await ManualControlsPortTests.eventually { device.focusPointOfInterest == CGPoint(x: 0.3, y: 0.3) })
            #expect(device.videoZoomFactor == 2 && device.isSubjectAreaChangeMonitoringEnabled)
            try device.lockForConfiguration()
            device.videoZoomFactor = 1
            device.isSubjectAreaChangeMonitoringEnabled = false
            device.focusPointOfInterest = CGPoint(x: 0.5, y: 0.5)
            device.focusMode = .continuousAutoFocus
            device.unlockForConfiguration()
        }

        @Test("CaptureService (an actor calling startRunning inside async methods, a RotationCoordinator, PhotoOutput through a continuation) takes a JPEG")
        func captureService() async throws {
            let service = CaptureService()
            try await service.start()
            #expect(await service.isRunning)
            let data = try await service.capturePhoto()
            #expect(data.prefix(2) == Data([0xFF, 0xD8]) && data.count > 10_000)
            await service.stop()
            #expect(await !service.isRunning)
        }
    }
}
