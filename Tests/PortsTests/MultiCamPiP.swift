import Foundation
import CaptureKit

/// Two cameras at once, each with its own video data output and preview, and the microphone
/// for each (in the style of Apple's AVMultiCamPiP sample, UIKit removed).
public final class MultiCamPiP: NSObject, VideoDataOutputSampleBufferDelegate, AudioDataOutputSampleBufferDelegate {
    enum SessionSetupResult {
        case success
        case multiCamNotSupported
        case configurationFailed
    }

    let session = MultiCamSession()
    private var setupResult: SessionSetupResult = .success
    private let sessionQueue = DispatchQueue(label: "session queue")
    private let dataOutputQueue = DispatchQueue(label: "data output queue")

    private var backCameraDeviceInput: CaptureDeviceInput?
    private let backCameraVideoDataOutput = VideoDataOutput()
    let backCameraVideoPreviewLayer = VideoPreview()
    private var frontCameraDeviceInput: CaptureDeviceInput?
    private let frontCameraVideoDataOutput = VideoDataOutput()
    let frontCameraVideoPreviewLayer = VideoPreview()
    private var microphoneDeviceInput: CaptureDeviceInput?
    private let backMicrophoneAudioDataOutput = AudioDataOutput()
    private let frontMicrophoneAudioDataOutput = AudioDataOutput()

    /// Called on the data output queue with each frame: whether it came through the back
    /// camera's output, the device it came from, and its size.
    var onVideo: ((Bool, String, Int, Int) -> Void)?
    /// Called on the data output queue with each audio buffer: whether it reached the back
    /// camera's microphone output.
    var onAudio: ((Bool) -> Void)?

    func configureSession() -> SessionSetupResult {
        guard setupResult == .success else { return setupResult }
        guard MultiCamSession.isMultiCamSupported else {
            print("MultiCam not supported on this device")
            setupResult = .multiCamNotSupported
            return setupResult
        }
        session.beginConfiguration()
        defer {
            session.commitConfiguration()
            if setupResult == .success { checkSystemCost() }
        }
        guard configureBackCamera() else {
            setupResult = .configurationFailed
            return setupResult
        }
        guard configureFrontCamera() else {
            setupResult = .configurationFailed
            return setupResult
        }
        guard configureMicrophone() else {
            setupResult = .configurationFailed
            return setupResult
        }
        return setupResult
    }

    private func configureBackCamera() -> Bool {
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        guard let backCamera = CaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) else {
            print("Could not find the back camera")
            return false
        }
        do {
            backCameraDeviceInput = try CaptureDeviceInput(device: backCamera)
            guard let backCameraDeviceInput = backCameraDeviceInput, session.canAddInput(backCameraDeviceInput) else {
                print("Could not add back camera device input")
                return false
            }
            session.addInputWithNoConnections(backCameraDeviceInput)
        } catch {
            print("Could not create back camera device input: \(error)")
            return false
        }
        guard let backCameraDeviceInput = backCameraDeviceInput,
              let backCameraVideoPort = backCameraDeviceInput.ports(for: .video,
                                                                    sourceDeviceType: backCamera.deviceType,
                                                                    sourceDevicePosition: backCamera.position).first else {
            print("Could not find the back camera device input's video port")
            return false
        }
        guard session.canAddOutput(backCameraVideoDataOutput) else {
            print("Could not add the back camera video data output")
            return false
        }
        session.addOutputWithNoConnections(backCameraVideoDataOutput)
        backCameraVideoDataOutput.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: Int(kCVPixelFormatType_32BGRA)]
        backCameraVideoDataOutput.setSampleBufferDelegate(self, queue: dataOutputQueue)

        let backCameraVideoDataOutputConnection = CaptureConnection(inputPorts: [backCameraVideoPort], output: backCameraVideoDataOutput)
        guard session.canAddConnection(backCameraVideoDataOutputConnection) else {
            print("Could not add a connection to the back camera video data output")
            return false
        }
        session.addConnection(backCameraVideoDataOutputConnection)
        backCameraVideoDataOutputConnection.videoOrientation = .portrait

        backCameraVideoPreviewLayer.setSessionWithNoConnection(session)
        let backCameraVideoPreviewLayerConnection = CaptureConnection(inputPort: backCameraVideoPort, videoPreviewLayer: backCameraVideoPreviewLayer)
        guard session.canAddConnection(backCameraVideoPreviewLayerConnection) else {
            print("Could not add a connection to the back camera video preview layer")
            return false
        }
        session.addConnection(backCameraVideoPreviewLayerConnection)
        return true
    }

    private func configureFrontCamera() -> Bool {
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        guard let frontCamera = CaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front) else {
            print("Could not find the front camera")
            return false
        }
        do {
            frontCameraDeviceInput = try CaptureDeviceInput(device: frontCamera)
            guard let frontCameraDeviceInput = frontCameraDeviceInput, session.canAddInput(frontCameraDeviceInput) else {
                print("Could not add front camera device input")
                return false
            }
            session.addInputWithNoConnections(frontCameraDeviceInput)
        } catch {
            print("Could not create front camera device input: \(error)")
            return false
        }
        guard let frontCameraDeviceInput = frontCameraDeviceInput,
              let frontCameraVideoPort = frontCameraDeviceInput.ports(for: .video,
                                                                      sourceDeviceType: frontCamera.deviceType,
                                                                      sourceDevicePosition: frontCamera.position).first else {
            print("Could not find the front camera device input's video port")
            return false
        }
        guard session.canAddOutput(frontCameraVideoDataOutput) else {
            print("Could not add the front camera video data output")
            return false
        }
        session.addOutputWithNoConnections(frontCameraVideoDataOutput)
        frontCameraVideoDataOutput.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: Int(kCVPixelFormatType_32BGRA)]
        frontCameraVideoDataOutput.setSampleBufferDelegate(self, queue: dataOutputQueue)

        let frontCameraVideoDataOutputConnection = CaptureConnection(inputPorts: [frontCameraVideoPort], output: frontCameraVideoDataOutput)
        guard session.canAddConnection(frontCameraVideoDataOutputConnection) else {
            print("Could not add a connection to the front camera video data output")
            return false
        }
        session.addConnection(frontCameraVideoDataOutputConnection)
        frontCameraVideoDataOutputConnection.videoOrientation = .portrait
        frontCameraVideoDataOutputConnection.automaticallyAdjustsVideoMirroring = false
        frontCameraVideoDataOutputConnection.isVideoMirrored = true

        frontCameraVideoPreviewLayer.setSessionWithNoConnection(session)
        let frontCameraVideoPreviewLayerConnection = CaptureConnection(inputPort: frontCameraVideoPort, videoPreviewLayer: frontCameraVideoPreviewLayer)
        guard session.canAddConnection(frontCameraVideoPreviewLayerConnection) else {
            print("Could not add a connection to the front camera video preview layer")
            return false
        }
        session.addConnection(frontCameraVideoPreviewLayerConnection)
        frontCameraVideoPreviewLayerConnection.automaticallyAdjustsVideoMirroring = false
        frontCameraVideoPreviewLayerConnection.isVideoMirrored = true
        return true
    }

    private func configureMicrophone() -> Bool {
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        guard let microphone = CaptureDevice.default(for: .audio) else {
            print("Could not find the microphone")
            return false
        }
        do {
            microphoneDeviceInput = try CaptureDeviceInput(device: microphone)
            guard let microphoneDeviceInput = microphoneDeviceInput, session.canAddInput(microphoneDeviceInput) else {
                print("Could not add microphone device input")
                return false
            }
            session.addInputWithNoConnections(microphoneDeviceInput)
        } catch {
            print("Could not create microphone input: \(error)")
            return false
        }
        guard let microphoneDeviceInput = microphoneDeviceInput,
              let backMicrophonePort = microphoneDeviceInput.ports(for: .audio,
                                                                   sourceDeviceType: microphone.deviceType,
                                                                   sourceDevicePosition: .back).first else {
            print("Could not find the back camera device input's audio port")
            return false
        }
        guard let frontMicrophonePort = microphoneDeviceInput.ports(for: .audio,
                                                                    sourceDeviceType: microphone.deviceType,
                                                                    sourceDevicePosition: .front).first else {
            print("Could not find the front camera device input's audio port")
            return false
        }
        guard session.canAddOutput(backMicrophoneAudioDataOutput) else {
            print("Could not add the back microphone audio data output")
            return false
        }
        session.addOutputWithNoConnections(backMicrophoneAudioDataOutput)
        backMicrophoneAudioDataOutput.setSampleBufferDelegate(self, queue: dataOutputQueue)
        guard session.canAddOutput(frontMicrophoneAudioDataOutput) else {
            print("Could not add the front microphone audio data output")
            return false
        }
        session.addOutputWithNoConnections(frontMicrophoneAudioDataOutput)
        frontMicrophoneAudioDataOutput.setSampleBufferDelegate(self, queue: dataOutputQueue)

        let backMicrophoneAudioDataOutputConnection = CaptureConnection(inputPorts: [backMicrophonePort], output: backMicrophoneAudioDataOutput)
        guard session.canAddConnection(backMicrophoneAudioDataOutputConnection) else {
            print("Could not add a connection to the back microphone audio data output")
            return false
        }
        session.addConnection(backMicrophoneAudioDataOutputConnection)
        let frontMicrophoneAudioDataOutputConnection = CaptureConnection(inputPorts: [frontMicrophonePort], output: frontMicrophoneAudioDataOutput)
        guard session.canAddConnection(frontMicrophoneAudioDataOutputConnection) else {
            print("Could not add a connection to the front microphone audio data output")
            return false
        }
        session.addConnection(frontMicrophoneAudioDataOutputConnection)
        return true
    }

    /// Lowers the cameras' formats while the session costs more than the hardware has.
    private func checkSystemCost() {
        var exceededSessionCost = false
        while session.hardwareCost > 1.0 {
            guard reduceResolutionForCamera(.back) || reduceResolutionForCamera(.front) else {
                exceededSessionCost = true
                break
            }
        }
        if exceededSessionCost || session.systemPressureCost > 1.0 {
            print("Session is too costly: hardware cost \(session.hardwareCost), system pressure cost \(session.systemPressureCost)")
        }
    }

    private func reduceResolutionForCamera(_ position: CaptureDevice.Position) -> Bool {
        for connection in session.connections {
            for inputPort in connection.inputPorts {
                guard inputPort.mediaType == .video, inputPort.sourceDevicePosition == position,
                      let videoDeviceInput = inputPort.input as? CaptureDeviceInput else { continue }
                let videoDevice = videoDeviceInput.device
                let activeDimensions = CMVideoFormatDescriptionGetDimensions(videoDevice.activeFormat.formatDescription)
                for format in videoDevice.formats.reversed() where format.isMultiCamSupported {
                    let dimensions = CMVideoFormatDescriptionGetDimensions(format.formatDescription)
                    guard dimensions.width < activeDimensions.width && dimensions.height < activeDimensions.height else { continue }
                    do {
                        try videoDevice.lockForConfiguration()
                        videoDevice.activeFormat = format
                        videoDevice.unlockForConfiguration()
                        print("reduced width = \(dimensions.width), reduced height = \(dimensions.height)")
                        return true
                    } catch {
                        print("Could not lock device for configuration: \(error)")
                        return false
                    }
                }
            }
        }
        return false
    }

    func start() {
        sessionQueue.sync { session.startRunning() }
    }

    func stop() {
        sessionQueue.sync { session.stopRunning() }
    }

    public func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: CaptureConnection) {
        if let videoDataOutput = output as? VideoDataOutput {
            processVideoSampleBuffer(sampleBuffer, fromOutput: videoDataOutput)
        } else if let audioDataOutput = output as? AudioDataOutput {
            onAudio?(audioDataOutput == backMicrophoneAudioDataOutput)
        }
    }

    private func processVideoSampleBuffer(_ sampleBuffer: CMSampleBuffer, fromOutput videoDataOutput: VideoDataOutput) {
        guard let pixelBuffer = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        let isBack = videoDataOutput == backCameraVideoDataOutput
        onVideo?(isBack, sampleBuffer.attachments.deviceUniqueID, CVPixelBufferGetWidth(pixelBuffer), CVPixelBufferGetHeight(pixelBuffer))
    }
}
