import CaptureKit
import Foundation

/// The CaptureKit column of PortingFromAVFoundation.md's tables, one row per line, compiled as an
/// app's code is (no @testable). `PortingGuideTests` checks that every row of the article is a
/// line here, and runs these on the virtual camera.
enum PortingGuideRows {
    /// The session rows, in the article's order.
    static func session(_ session: CaptureSession, input: CaptureDeviceInput, frames: VideoDataOutput) {
        session.sessionPreset = .hd1280x720
        session.addInput(input)
        session.addOutput(frames)
        session.beginConfiguration()
        session.commitConfiguration()
        session.startRunning()
        session.removeOutput(frames)
        session.stopRunning()
    }

    /// The device rows.
    static func device(_ device: CaptureDevice) throws {
        try device.lockForConfiguration()
        device.focusMode = .continuousAutoFocus
        device.focusPointOfInterest = CGPoint(x: 0.5, y: 0.5)
        device.exposureMode = .continuousAutoExposure
        device.exposurePointOfInterest = CGPoint(x: 0.5, y: 0.5)
        device.whiteBalanceMode = .continuousAutoWhiteBalance
        device.videoZoomFactor = 2
        device.isSubjectAreaChangeMonitoringEnabled = true
        device.activeVideoMinFrameDuration = CMTimeMake(value: 1, timescale: 30)
        device.setExposureModeCustom(duration: CMTimeMakeWithSeconds(0.01, preferredTimescale: 1000), iso: 200, completionHandler: nil)
        device.setFocusModeLocked(lensPosition: 0.5, completionHandler: nil)
        device.setWhiteBalanceModeLocked(with: device.deviceWhiteBalanceGains, completionHandler: nil)
        device.unlockForConfiguration()
    }

    /// The output and connection rows.
    static func outputs(frames: VideoDataOutput, still: StillImageOutput, codes: MetadataOutput, connection: CaptureConnection,
                        delegate: any VideoDataOutputSampleBufferDelegate, queue: DispatchQueue) {
        frames.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        frames.setSampleBufferDelegate(delegate, queue: queue)
        still.outputSettings = [VideoCodecKey: VideoCodecType.jpeg]
        codes.metadataObjectTypes = [.qr, .ean13]
        codes.rectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
        connection.videoOrientation = .portrait
    }

    /// The status, reason and notification rows.
    static func values(note: Notification) -> (AuthorizationStatus, CaptureSession.InterruptionReason?, Error?) {
        let status = CaptureDevice.authorizationStatus(for: .video)
        let reason = CaptureSession.InterruptionReason(rawValue: 3)
        let failure = note.userInfo?[CaptureSessionErrorKey] as? Error
        return (status, reason, failure)
    }

    /// The sample-buffer rows: the mean of a BGRA frame's first row's green bytes, and its time.
    static func firstRowGreen(_ sampleBuffer: CMSampleBuffer) -> (green: Double, seconds: Double)? {
        let time = CMSampleBufferGetPresentationTimeStamp(sampleBuffer)
        guard let pixelBuffer = CMSampleBufferGetImageBuffer(sampleBuffer) else { return nil }
        CVPixelBufferLockBaseAddress(pixelBuffer, .readOnly)
        let base = CVPixelBufferGetBaseAddress(pixelBuffer)
        let rowBytes = CVPixelBufferGetBytesPerRow(pixelBuffer)
        let isBGRA = CVPixelBufferGetPixelFormatType(pixelBuffer) == kCVPixelFormatType_32BGRA
        let row = base?.assumingMemoryBound(to: UInt8.self)
        let green = isBGRA ? row.map { row in stride(from: 1, to: rowBytes, by: 4).map { Double(row[$0]) }.reduce(0, +) / Double(rowBytes / 4) } : nil
        CVPixelBufferUnlockBaseAddress(pixelBuffer, .readOnly)
        guard let green else { return nil }
        let seconds = CMTimeGetSeconds(time)
        return (green, seconds)
    }

    /// The multi-camera rows: `camera` connected to `frames` and `preview` in a new session;
    /// the session and whether it costs too much, or nil where a row's guard fails.
    static func multiCam(camera: CaptureDevice, input: CaptureDeviceInput, frames: VideoDataOutput,
                         preview: VideoPreview) -> (MultiCamSession, Bool)? {
        let pip = MultiCamSession()
        guard MultiCamSession.isMultiCamSupported else { return nil }
        pip.addInputWithNoConnections(input)
        guard let port = input.ports(for: .video, sourceDeviceType: camera.deviceType, sourceDevicePosition: camera.position).first else { return nil }
        pip.addOutputWithNoConnections(frames)
        pip.addConnection(CaptureConnection(inputPorts: [port], output: frames))
        preview.setSessionWithNoConnection(pip)
        pip.addConnection(CaptureConnection(inputPort: port, videoPreviewLayer: preview))
        let tooCostly = pip.hardwareCost > 1.0
        return (pip, tooCostly)
    }

    /// The checked rows.
    static func checked(_ session: CaptureSession, device: CaptureDevice, input: CaptureDeviceInput, codes: MetadataOutput,
                        frames: VideoDataOutput, still: StillImageOutput) async throws -> CaptureDevice.AuthorizationStatus {
        try session.setSessionPreset(.vga640x480)
        try session.checked.addInput(input)
        try session.checked.addOutput(codes)
        try frames.setVideoSettings(.init(pixelFormat: .bgra, width: 640, height: 360))
        try still.setOutputSettings(.jpeg(quality: 0.9))
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        try device.setFocusMode(.locked)
        try device.setVideoZoomFactor(2)
        try device.checked.setFocusModeLocked(lensPosition: 0.2)
        try device.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 60), iso: 400)
        try await session.checked.startRunning()
        await session.checked.stopRunning()
        let checkedStatus = try CaptureDevice.Checked.authorizationStatus(for: .video)
        return checkedStatus
    }
}
