import Foundation
import CaptureKit

/// AVCamManual's photo capture delegate (iOS 10's callbacks, the preview force-unwrapped as the
/// sample does), saving to a folder instead of the photo library.
class ManualPhotoCaptureDelegate: NSObject, PhotoCaptureDelegate {
    private(set) var requestedPhotoSettings: PhotoSettings
    private var willCapturePhotoAnimation: () -> Void
    private var completed: (ManualPhotoCaptureDelegate) -> Void
    private var jpegPhotoData: Data?
    private let folder: URL
    private(set) var savedURL: URL?
    private(set) var previewSize: (width: Int, height: Int)?
    private(set) var previewMean: (red: Double, green: Double, blue: Double)?

    init(with requestedPhotoSettings: PhotoSettings, folder: URL, willCapturePhotoAnimation: @escaping () -> Void,
         completed: @escaping (ManualPhotoCaptureDelegate) -> Void) {
        self.requestedPhotoSettings = requestedPhotoSettings
        self.folder = folder
        self.willCapturePhotoAnimation = willCapturePhotoAnimation
        self.completed = completed
    }

    private func didFinish() {
        completed(self)
    }

    func photoOutput(_ captureOutput: PhotoOutput, willCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) {
        willCapturePhotoAnimation()
    }

    func photoOutput(_ captureOutput: PhotoOutput, didFinishProcessingPhoto photoSampleBuffer: CMSampleBuffer?, previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?,
                     resolvedSettings: ResolvedPhotoSettings, bracketSettings: BracketedStillImageSettings?, error: Error?) {
        if let error = error {
            print("Error capturing photo: \(error)")
            return
        }
        jpegPhotoData = PhotoOutput.jpegPhotoDataRepresentation(forJPEGSampleBuffer: photoSampleBuffer!, previewPhotoSampleBuffer: previewPhotoSampleBuffer!)
        measurePreview(previewPhotoSampleBuffer!)
    }

    func photoOutput(_ captureOutput: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings, error: Error?) {
        if let error = error {
            print("Error capturing photo: \(error)")
            didFinish()
            return
        }
        guard let jpegPhotoData = jpegPhotoData else {
            print("No photo data resource")
            didFinish()
            return
        }
        let url = folder.appendingPathComponent("\(resolvedSettings.uniqueID).jpg")
        do {
            try jpegPhotoData.write(to: url)
            savedURL = url
        } catch {
            print("Error occurred while saving photo: \(error)")
        }
        didFinish()
    }

    /// The preview's size and mean colour, read through CoreVideo's calls.
    private func measurePreview(_ preview: CMSampleBuffer) {
        guard let pixelBuffer = CMSampleBufferGetImageBuffer(preview) else { return }
        CVPixelBufferLockBaseAddress(pixelBuffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(pixelBuffer, .readOnly) }
        let width = CVPixelBufferGetWidth(pixelBuffer), height = CVPixelBufferGetHeight(pixelBuffer)
        let bytesPerRow = CVPixelBufferGetBytesPerRow(pixelBuffer)
        guard CVPixelBufferGetPixelFormatType(pixelBuffer) == kCVPixelFormatType_32BGRA,
              let base = CVPixelBufferGetBaseAddress(pixelBuffer)?.assumingMemoryBound(to: UInt8.self) else { return }
        var sums = (0, 0, 0)
        for y in 0..<height {
            for x in 0..<width {
                let pixel = base + y * bytesPerRow + x * 4
                sums = (sums.0 + Int(pixel[2]), sums.1 + Int(pixel[1]), sums.2 + Int(pixel[0]))
            }
        }
        let count = Double(width * height)
        previewSize = (width, height)
        previewMean = (Double(sums.0) / count, Double(sums.1) / count, Double(sums.2) / count)
    }
}
