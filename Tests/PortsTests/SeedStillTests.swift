import CaptureKit
import Foundation
import Testing

/// Still capture as the seeds write it (seed 004's `captureStillImageAsynchronously` with its
/// attachments read through CoreMedia; seed 003's brackets made with AVFoundation's factories),
/// `AV` dropped, on the virtual camera.
extension SharedDevices {
    @Suite("Seed-era still capture", .serialized)
    struct SeedStillTests {
        final class Box<Value>: @unchecked Sendable {
            var value: Value
            init(_ value: Value) { self.value = value }
        }

        static func session() throws -> (CaptureSession, StillImageOutput, CaptureDevice) {
            let session = CaptureSession()
            session.sessionPreset = .vga640x480
            let device = try #require(CaptureDevice.default(for: .video))
            session.addInput(try CaptureDeviceInput(device: device))
            let stillCameraOutput = StillImageOutput()
            stillCameraOutput.outputSettings = [VideoCodecKey: kCMVideoCodecType_JPEG]
            session.addOutput(stillCameraOutput)
            return (session, stillCameraOutput, device)
        }

        @Test("a JPEG still's metadata read with CMCopyDictionaryOfAttachments and CMGetAttachment is what its EXIF says")
        func attachments() async throws {
            let (session, stillCameraOutput, device) = try Self.session()
            session.startRunning()
            defer { session.stopRunning() }
            let connection = try #require(stillCameraOutput.connection(with: .video))
            let result: (Data?, NSDictionary?, Any?) = await withCheckedContinuation { continuation in
                stillCameraOutput.captureStillImageAsynchronously(from: connection) { imageDataSampleBuffer, error in
                    guard error == nil, let imageDataSampleBuffer else { return continuation.resume(returning: (nil, nil, nil)) }
                    let imageData = StillImageOutput.jpegStillImageNSDataRepresentation(imageDataSampleBuffer)
                    let metadata: NSDictionary? = CMCopyDictionaryOfAttachments(allocator: nil, target: imageDataSampleBuffer,
                                                                                attachmentMode: kCMAttachmentMode_ShouldPropagate) as NSDictionary?
                    let exif = CMGetAttachment(imageDataSampleBuffer, key: kCGImagePropertyExifDictionary, attachmentModeOut: nil)
                    continuation.resume(returning: (imageData, metadata, exif))
                }
            }
            let (data, metadata, exifAttachment) = result
            let jpeg = try #require(data)
            let exif = try #require(metadata?[kCGImagePropertyExifDictionary] as? [String: Any])
            #expect((exifAttachment as? [String: Any])?.count == exif.count)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("seed-still-\(UUID().uuidString).jpg")
            try jpeg.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let tags = try Tools.exiftool(file.path, ["ISO", "ExposureTime", "Model", "Orientation"])
            let iso = try #require((exif[kCGImagePropertyExifISOSpeedRatings] as? [NSNumber])?.first)
            #expect("\(iso.intValue)" == tags["ISO"], "\(exif) against \(tags)")
            let seconds = try #require((exif[kCGImagePropertyExifExposureTime] as? NSNumber)?.doubleValue)
            #expect(abs(seconds - (Double(tags["ExposureTime"] ?? "") ?? -1)) < 1e-6, "\(tags)")
            let tiff = try #require(metadata?[kCGImagePropertyTIFFDictionary] as? [String: Any])
            #expect(tiff[kCGImagePropertyTIFFModel] as? String == tags["Model"] && tags["Model"]?.isEmpty == false, "\(tiff) against \(tags)")
            #expect(device.isConnected)
            #expect((metadata?[kCGImagePropertyOrientation] as? NSNumber)?.stringValue == tags["Orientation"])
        }

        @Test("a bracket made with AVFoundation's factories, taken with the non-throwing call, gives one image per setting; a refused one the error")
        func bracket() async throws {
            let (session, stillCameraOutput, device) = try Self.session()
            #expect(stillCameraOutput.availableImageDataCVPixelFormatTypes.contains(kCVPixelFormatType_32BGRA))
            let rates: [FrameRateRange] = device.activeFormat.videoSupportedFrameRateRanges
            #expect(!rates.isEmpty)
            session.startRunning()
            defer { session.stopRunning() }
            let connection = try #require(stillCameraOutput.connection(with: .video))
            let bracketSettings: [BracketedStillImageSettings] = [-2, 0, 2].map {
                AutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: $0)
            }
            let received = Box<[(Bool, Float?)]>([])
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                stillCameraOutput.captureStillImageBracketAsynchronously(from: connection, withSettingsArray: bracketSettings) { sampleBuffer, stillImageSettings, error in
                    let bias = (stillImageSettings as? AutoExposureBracketedStillImageSettings)?.exposureTargetBias
                    received.value.append((sampleBuffer != nil && error == nil, bias))
                    if received.value.count == bracketSettings.count { continuation.resume() }
                }
            }
            #expect(received.value.map(\.0) == [true, true, true] && received.value.map(\.1) == [-2, 0, 2])
            let manual = ManualExposureBracketedStillImageSettings.manualExposureSettings(exposureDuration: CMTimeMake(value: 1, timescale: 60), iso: 400)
            let mixed: [BracketedStillImageSettings] = [manual, AutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: 1)]
            let refusal: Error? = await withCheckedContinuation { continuation in
                stillCameraOutput.captureStillImageBracketAsynchronously(from: connection, withSettingsArray: mixed) { sampleBuffer, _, error in
                    continuation.resume(returning: sampleBuffer == nil ? error : nil)
                }
            }
            #expect(refusal != nil, "a mixed bracket is refused through the handler")
        }
    }
}
