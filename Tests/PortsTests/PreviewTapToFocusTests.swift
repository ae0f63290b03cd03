import CaptureKit
import Foundation
import Testing

/// PreviewingVideo.md's tap-to-focus sample, run as the article writes it: against the process's
/// shared virtual camera (`CaptureDevice.find("virtual")`), so it runs with the other suites that
/// share it. `VideoPreviewGeometryTests` checks that the article's text is this file's, word for word.
extension SharedDevices {
    @Suite("Tap to focus on a preview")
    struct PreviewTapToFocusTests {
        @Test("a tap on a portrait preview focuses the camera at that point, as PreviewingVideo.md shows")
        func tapToFocus() throws {
            let session = CaptureSession()
            let device = try CaptureDevice.find("virtual")
            try session.addInput(CaptureDeviceInput(device: device))
            let preview = VideoPreview(session: session)
            preview.connection?.videoOrientation = .portrait
            preview.bounds = CGRect(x: 0, y: 0, width: 320, height: 568)

            func focus(at tap: CGPoint) throws {
                guard device.isFocusPointOfInterestSupported, device.isFocusModeSupported(.autoFocus),
                      let point = preview.captureDevicePointOfInterestIfVisible(for: tap) else { return }
                try device.lockForConfiguration()
                defer { device.unlockForConfiguration() }
                try device.setFocusPointOfInterest(point)
                try device.setFocusMode(.autoFocus)
            }
            try focus(at: CGPoint(x: 80, y: 142))

            defer {
                try? device.withConfigurationLock { device in
                    try device.setFocusPointOfInterest(CGPoint(x: 0.5, y: 0.5))
                    try device.setFocusMode(.continuousAutoFocus)
                }
            }
            #expect(device.focusPointOfInterest == preview.captureDevicePointOfInterest(for: CGPoint(x: 80, y: 142)))
            #expect(device.focusMode == .autoFocus || device.focusMode == .locked)
        }
    }
}
