import Foundation
import CaptureKit

/// Frames from the camera as BGRA pixels, with the mean of the green channel (VideoCapture-style).
public final class FrameExtractor: NSObject, VideoDataOutputSampleBufferDelegate {
    public let captureSession = CaptureSession()
    private let videoOutput = VideoDataOutput()
    private let queue = DispatchQueue(label: "net.example.camera-queue")
    public var fps = 15
    private var lastTimestamp = CMTime()
    public var onFrame: ((Double, CMTime) -> Void)?
    public private(set) var lastSize = (width: 0, height: 0)

    public func setUp(sessionPreset: CaptureSession.Preset = .medium) -> Bool {
        captureSession.beginConfiguration()
        captureSession.sessionPreset = sessionPreset
        guard let captureDevice = CaptureDevice.default(for: .video) else {
            print("Error: no video devices available")
            return false
        }
        guard let videoInput = try? CaptureDeviceInput(device: captureDevice) else {
            print("Error: could not create CaptureDeviceInput")
            return false
        }
        if captureSession.canAddInput(videoInput) { captureSession.addInput(videoInput) }
        let settings: [String: Any] = [kCVPixelBufferPixelFormatTypeKey as String: NSNumber(value: kCVPixelFormatType_32BGRA)]
        videoOutput.videoSettings = settings
        videoOutput.alwaysDiscardsLateVideoFrames = true
        videoOutput.setSampleBufferDelegate(self, queue: queue)
        if captureSession.canAddOutput(videoOutput) { captureSession.addOutput(videoOutput) }
        videoOutput.connection(with: .video)?.videoOrientation = .portrait
        captureSession.commitConfiguration()
        return true
    }

    public func start() {
        if !captureSession.isRunning { captureSession.startRunning() }
    }

    public func stop() {
        if captureSession.isRunning { captureSession.stopRunning() }
    }

    public func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: CaptureConnection) {
        let timestamp = CMSampleBufferGetPresentationTimeStamp(sampleBuffer)
        let deltaTime = timestamp - lastTimestamp
        guard deltaTime >= CMTimeMake(value: 1, timescale: Int32(fps)) else { return }
        lastTimestamp = timestamp
        guard let imageBuffer = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        CVPixelBufferLockBaseAddress(imageBuffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(imageBuffer, .readOnly) }
        let width = CVPixelBufferGetWidth(imageBuffer), height = CVPixelBufferGetHeight(imageBuffer)
        let bytesPerRow = CVPixelBufferGetBytesPerRow(imageBuffer)
        guard CVPixelBufferGetPixelFormatType(imageBuffer) == kCVPixelFormatType_32BGRA,
              let base = CVPixelBufferGetBaseAddress(imageBuffer) else { return }
        lastSize = (width, height)
        let pixels = base.assumingMemoryBound(to: UInt8.self)
        var sum = 0
        for y in 0..<height {
            for x in 0..<width { sum += Int(pixels[y * bytesPerRow + x * 4 + 1]) }
        }
        onFrame?(Double(sum) / Double(width * height), timestamp)
    }

    public func captureOutput(_ output: CaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: CaptureConnection) {}
}
