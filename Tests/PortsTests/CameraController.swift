import Foundation
import CaptureKit

/// A camera manager in the style of the 2016–2023 samples: a session queue, discovery, photos and movies.
public final class CameraController: NSObject, PhotoCaptureDelegate, FileOutputRecordingDelegate {
    public enum SetupResult { case success, notAuthorized, configurationFailed }

    public let session = CaptureSession()
    private let sessionQueue = DispatchQueue(label: "session queue")
    private var setupResult: SetupResult = .success
    var videoDeviceInput: CaptureDeviceInput!  // @objc dynamic cut: no ObjC runtime on Linux
    private let photoOutput = PhotoOutput()
    private var movieFileOutput: MovieFileOutput?
    private var inProgressPhotoCaptureDelegates = [Int64: Data]()
    private var observers: [NSObjectProtocol] = []
    public var photoFinished: ((Data?) -> Void)?
    public var movieFinished: ((URL, Error?) -> Void)?

    private let videoDeviceDiscoverySession = CaptureDevice.DiscoverySession(
        deviceTypes: [.builtInWideAngleCamera, .builtInDualCamera, .builtInTrueDepthCamera, .external],
        mediaType: .video, position: .unspecified)

    public override init() {
        super.init()
        switch CaptureDevice.authorizationStatus(for: .video) {
        case .authorized:
            break
        case .notDetermined:
            sessionQueue.suspend()
            CaptureDevice.requestAccess(for: .video) { granted in
                if !granted { self.setupResult = .notAuthorized }
                self.sessionQueue.resume()
            }
        default:
            setupResult = .notAuthorized
        }
        sessionQueue.async { self.configureSession() }
    }

    private func configureSession() {
        guard setupResult == .success else { return }
        session.beginConfiguration()
        session.sessionPreset = .photo
        do {
            var defaultVideoDevice: CaptureDevice?
            if let backCamera = CaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) {
                defaultVideoDevice = backCamera
            } else if let frontCamera = CaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front) {
                defaultVideoDevice = frontCamera
            } else {
                defaultVideoDevice = videoDeviceDiscoverySession.devices.first
            }
            guard let videoDevice = defaultVideoDevice else {
                setupResult = .configurationFailed
                session.commitConfiguration()
                return
            }
            let input = try CaptureDeviceInput(device: videoDevice)
            if session.canAddInput(input) {
                session.addInput(input)
                videoDeviceInput = input
            } else {
                setupResult = .configurationFailed
                session.commitConfiguration()
                return
            }
        } catch {
            print("Couldn't create video device input: \(error)")
            setupResult = .configurationFailed
            session.commitConfiguration()
            return
        }
        if let audioDevice = CaptureDevice.default(for: .audio), let audioInput = try? CaptureDeviceInput(device: audioDevice),
           session.canAddInput(audioInput) {
            session.addInput(audioInput)
        }
        if session.canAddOutput(photoOutput) {
            session.addOutput(photoOutput)
            photoOutput.maxPhotoQualityPrioritization = .quality
        } else {
            setupResult = .configurationFailed
        }
        session.commitConfiguration()
    }

    public func start() {
        sessionQueue.async {
            guard self.setupResult == .success else { return }
            self.observers.append(NotificationCenter.default.addObserver(forName: .CaptureSessionRuntimeError, object: self.session,
                                                                         queue: nil) { note in
                let error = note.userInfo?[CaptureSessionErrorKey] as? Error
                print("runtime error: \(String(describing: error))")
            })
            self.observers.append(NotificationCenter.default.addObserver(forName: .CaptureSessionWasInterrupted, object: self.session,
                                                                         queue: nil) { note in
                if let value = note.userInfo?[CaptureSessionInterruptionReasonKey] as? Int,
                   let reason = CaptureSession.InterruptionReason(rawValue: value) {
                    print("interrupted: \(reason)")
                }
            })
            self.session.startRunning()
        }
    }

    public func stop() {
        sessionQueue.async {
            self.session.stopRunning()
            self.observers.forEach(NotificationCenter.default.removeObserver)
            self.observers = []
        }
    }

    public func capturePhoto(flash: CaptureDevice.FlashMode = .auto) {
        sessionQueue.async {
            if let connection = self.photoOutput.connection(with: .video), connection.isVideoRotationAngleSupported(90) {
                connection.videoRotationAngle = 90
            }
            let settings = PhotoSettings()
            if self.videoDeviceInput.device.isFlashAvailable { settings.flashMode = flash }
            settings.photoQualityPrioritization = .balanced
            self.photoOutput.capturePhoto(with: settings, delegate: self)
        }
    }

    public func photoOutput(_ output: PhotoOutput, willCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) {}

    public func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: Photo, error: Error?) {
        if let error { print("Error capturing photo: \(error)") }
        inProgressPhotoCaptureDelegates[photo.resolvedSettings.uniqueID] = photo.fileDataRepresentation()
    }

    public func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings, error: Error?) {
        photoFinished?(inProgressPhotoCaptureDelegates.removeValue(forKey: resolvedSettings.uniqueID))
    }

    public func toggleMovieRecording(to url: URL) {
        sessionQueue.async {
            if self.movieFileOutput == nil {
                let movieFileOutput = MovieFileOutput()
                self.session.beginConfiguration()
                if self.session.canAddOutput(movieFileOutput) {
                    self.session.addOutput(movieFileOutput)
                    self.movieFileOutput = movieFileOutput
                }
                self.session.commitConfiguration()
            }
            guard let movieFileOutput = self.movieFileOutput else { return }
            if !movieFileOutput.isRecording {
                movieFileOutput.startRecording(to: url, recordingDelegate: self)
            } else {
                movieFileOutput.stopRecording()
            }
        }
    }

    public func fileOutput(_ output: FileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [CaptureConnection], error: Error?) {
        var success = true
        if let error = error as NSError? {
            success = (error.userInfo[ErrorRecordingSuccessfullyFinishedKey] as? Bool) ?? false
        }
        movieFinished?(outputFileURL, success ? nil : error)
    }

    public func focus(at devicePoint: CGPoint) {
        sessionQueue.async {
            let device = self.videoDeviceInput.device
            do {
                try device.lockForConfiguration()
                if device.isFocusPointOfInterestSupported && device.isFocusModeSupported(.autoFocus) {
                    device.focusPointOfInterest = devicePoint
                    device.focusMode = .autoFocus
                }
                if device.isExposurePointOfInterestSupported && device.isExposureModeSupported(.continuousAutoExposure) {
                    device.exposurePointOfInterest = devicePoint
                    device.exposureMode = .continuousAutoExposure
                }
                device.isSubjectAreaChangeMonitoringEnabled = true
                device.unlockForConfiguration()
            } catch {
                print("Could not lock device for configuration: \(error)")
            }
        }
    }

    public func zoom(to factor: CGFloat) {
        let device = videoDeviceInput.device
        guard (try? device.lockForConfiguration()) != nil else { return }
        device.videoZoomFactor = max(1.0, min(factor, device.activeFormat.videoMaxZoomFactor))
        device.unlockForConfiguration()
    }
}
