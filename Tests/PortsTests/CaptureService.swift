import Foundation
import CaptureKit

/// The 2024 AVCam shape: an actor owns the session and calls the synchronous API inside async methods.
actor CaptureService {
    private(set) var isRunning = false
    private let captureSession = CaptureSession()
    private let photoOutput = PhotoOutput()
    private var activeVideoInput: CaptureDeviceInput?
    private var isSetUp = false
    private var rotationObservers: [AnyObject] = []

    var isAuthorized: Bool {
        get async {
            let status = CaptureDevice.authorizationStatus(for: .video)
            var isAuthorized = status == .authorized
            if status == .notDetermined {
                isAuthorized = await CaptureDevice.requestAccess(for: .video)
            }
            return isAuthorized
        }
    }

    func start() async throws {
        guard await isAuthorized, !captureSession.isRunning else { return }
        try setUpSession()
        captureSession.startRunning()
        isRunning = captureSession.isRunning
    }

    func stop() async {
        captureSession.stopRunning()
        isRunning = false
    }

    private func setUpSession() throws {
        guard !isSetUp else { return }
        let devices = CaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera, .external],
                                                     mediaType: .video, position: .unspecified).devices
        guard let camera = CaptureDevice.systemPreferredCamera ?? devices.first else { throw CaptureServiceError.noCamera }
        captureSession.beginConfiguration()
        defer { captureSession.commitConfiguration() }
        captureSession.sessionPreset = .photo
        activeVideoInput = try addInput(for: camera)
        if let microphone = CaptureDevice.default(for: .audio) { _ = try? addInput(for: microphone) }
        try addOutput(photoOutput)
        photoOutput.maxPhotoQualityPrioritization = .quality
        let coordinator = CaptureDevice.RotationCoordinator(device: camera, previewLayer: nil)
        photoOutput.connection(with: .video)?.videoRotationAngle = coordinator.videoRotationAngleForHorizonLevelCapture
        rotationObservers.append(coordinator.observe(\.videoRotationAngleForHorizonLevelCapture, options: .new) { [weak self] _, change in
            guard let self, let angle = change.newValue else { return }
            Task { await self.updateCaptureRotation(angle) }
        })
        rotationObservers.append(coordinator)
        isSetUp = true
    }

    private func updateCaptureRotation(_ angle: CGFloat) {
        photoOutput.connection(with: .video)?.videoRotationAngle = angle
    }

    @discardableResult
    private func addInput(for device: CaptureDevice) throws -> CaptureDeviceInput {
        let input = try CaptureDeviceInput(device: device)
        guard captureSession.canAddInput(input) else { throw CaptureServiceError.addInputFailed }
        captureSession.addInput(input)
        return input
    }

    private func addOutput(_ output: CaptureOutput) throws {
        guard captureSession.canAddOutput(output) else { throw CaptureServiceError.addOutputFailed }
        captureSession.addOutput(output)
    }

    func capturePhoto() async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            let delegate = PhotoCaptureContinuation(continuation)
            let settings = PhotoSettings()
            settings.photoQualityPrioritization = .balanced
            photoOutput.capturePhoto(with: settings, delegate: delegate)
            pending = delegate
        }
    }

    private var pending: PhotoCaptureContinuation?
}

enum CaptureServiceError: Error { case noCamera, addInputFailed, addOutputFailed, noPhotoData }

private final class PhotoCaptureContinuation: NSObject, PhotoCaptureDelegate {
    private let continuation: CheckedContinuation<Data, Error>

    init(_ continuation: CheckedContinuation<Data, Error>) { self.continuation = continuation }

    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: Photo, error: Error?) {
        if let error {
            continuation.resume(throwing: error)
        } else if let data = photo.fileDataRepresentation() {
            continuation.resume(returning: data)
        } else {
            continuation.resume(throwing: CaptureServiceError.noPhotoData)
        }
    }
}
