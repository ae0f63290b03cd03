import CaptureKit
import Foundation
import Testing

/// AVCamManual's photo capture: a photo output, settings asking for a preview in the first
/// available preview pixel format, and the iOS 10 delegate that force-unwraps the preview.
extension SharedDevices {
    @Suite("AVCamManual's photo capture")
    struct ManualPhotoTests {
        @Test("the iOS 10 delegate gets a BGRA preview of the photo beside its JPEG; the saved JPEG and the preview agree")
        func previewPhoto() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manual-photo-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let session = CaptureSession()
            session.sessionPreset = .hd1280x720
            let camera = try #require(CaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            session.addInput(try CaptureDeviceInput(device: camera))
            let photoOutput = PhotoOutput()
            session.addOutput(photoOutput)
            session.startRunning()
            defer { session.stopRunning() }

            let photoSettings = PhotoSettings()
            photoSettings.flashMode = .off
            photoSettings.isHighResolutionPhotoEnabled = true
            if photoSettings.availablePreviewPhotoPixelFormatTypes.count > 0 {
                photoSettings.previewPhotoFormat = [kCVPixelBufferPixelFormatTypeKey as String: photoSettings.availablePreviewPhotoPixelFormatTypes.first!]
            }
            let done: ManualPhotoCaptureDelegate = await withCheckedContinuation { continuation in
                let delegate = ManualPhotoCaptureDelegate(with: photoSettings, folder: folder, willCapturePhotoAnimation: {}) { delegate in
                    continuation.resume(returning: delegate)
                }
                photoOutput.capturePhoto(with: photoSettings, delegate: delegate)
            }
            let url = try #require(done.savedURL)
            let size = try #require(done.previewSize)
            #expect(size.width == 160 && size.height == 90, "160 wide with the photo's 16:9: \(size)")
            let mean = try #require(done.previewMean)
            // The saved JPEG scaled to the preview's size by PIL: the preview shows the same picture.
            let (status, output) = try Tools.run("/usr/bin/python3", ["-c", """
                from PIL import Image, ImageStat
                print(*ImageStat.Stat(Image.open('\(url.path)').convert('RGB').resize((160, 90), Image.BOX)).mean)
                """])
            let jpeg = output.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            #expect(status == 0 && jpeg.count == 3, "\(output)")
            if jpeg.count == 3 {
                for (preview, decoded) in zip([mean.red, mean.green, mean.blue], jpeg) {
                    #expect(abs(preview - decoded) < 6, "preview \(mean) against the JPEG's \(jpeg)")
                }
            }
            let exif = try Tools.exiftool(url.path, ["ImageWidth", "ImageHeight"])
            #expect(exif["ImageWidth"] == "1280" && exif["ImageHeight"] == "720", "\(exif)")
        }
    }
}
