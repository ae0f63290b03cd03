import CaptureKit
import Foundation
import Testing

/// AVFoundation's assignments and session calls do not throw; where AVFoundation would raise,
/// CaptureKit leaves the value as it was and posts `.CaptureConfigurationError`. The checked
/// forms throw the same error.
extension SharedDevices {
    @Suite("Refused assignments and calls are reported, not thrown")
    struct ConfigurationFailureTests {
        @Test("an assignment without the configuration lock leaves the value and posts the error naming the device")
        func assignmentWithoutLock() throws {
            let device = try #require(CaptureDevice.default(for: .video))
            let before = device.focusMode
            let wanted: CaptureDevice.FocusMode = before == .locked ? .continuousAutoFocus : .locked
            let notes = ObservedNotifications(.CaptureConfigurationError, object: device)
            device.focusMode = wanted
            #expect(device.focusMode == before)
            let error = try #require(notes.all.first?.userInfo?[CaptureSessionErrorKey] as? CaptureError)
            #expect(error.code == .notLocked && error.description.contains(device.uniqueID))
            #expect(throws: CaptureError.self) { try device.setFocusMode(wanted) }
        }

        @Test("an assignment out of range under the lock is refused; one in range is made")
        func assignmentOutOfRange() throws {
            let device = try #require(CaptureDevice.default(for: .video))
            try device.lockForConfiguration()
            defer { device.unlockForConfiguration() }
            let notes = ObservedNotifications(.CaptureConfigurationError, object: device)
            device.videoZoomFactor = 1
            device.videoZoomFactor = device.activeFormat.videoMaxZoomFactor + 1
            #expect(device.videoZoomFactor == 1)
            let error = try #require(notes.all.first?.userInfo?[CaptureSessionErrorKey] as? CaptureError)
            #expect(error.code == .outOfRange && notes.all.count == 1)
            device.videoZoomFactor = 2
            #expect(device.videoZoomFactor == 2 && notes.all.count == 1)
            device.videoZoomFactor = 1
            device.setFocusModeLocked(lensPosition: 2)
            #expect(notes.all.count == 2, "setFocusModeLocked out of 0…1 is reported")
            #expect(throws: CaptureError.self) { try device.checked.setFocusModeLocked(lensPosition: 2) }
        }

        @Test("a session's refused input is reported with the session as object; checked.addInput throws it")
        func refusedInput() throws {
            let session = CaptureSession()
            let input = try CaptureDeviceInput(device: try #require(CaptureDevice.default(for: .video)))
            let notes = ObservedNotifications(.CaptureConfigurationError, object: session)
            session.addInput(input)
            session.addInput(input)
            #expect(session.inputs.count == 1)
            let error = try #require(notes.all.first?.userInfo?[CaptureSessionErrorKey] as? CaptureError)
            #expect(error.code == .inputAlreadyAdded)
            #expect(throws: CaptureError.self) { try session.checked.addInput(input) }
            session.removeInput(input)
            session.removeInput(input)
            #expect(session.inputs.isEmpty && notes.all.count == 2)
        }

        @Test("a start that fails posts the runtime error, as AVFoundation's startRunning does, and the session stays stopped")
        func failedStart() async throws {
            let session = CaptureSession()
            let input = try CaptureDeviceInput(device: try #require(CaptureDevice.default(for: .video)))
            session.addInput(input)
            session.addOutputWithNoConnections(VideoDataOutput())
            let notes = ObservedNotifications(.CaptureSessionRuntimeError, object: session)
            session.startRunning()
            #expect(!session.isRunning)
            let posted = await notes.wait()
            let error = try #require(posted.first?.userInfo?[CaptureSessionErrorKey] as? CaptureError)
            #expect(error.code == .noCompatibleInput)
            #expect(throws: CaptureError.self) { try session.checked.startRunning() }
        }

        @Test("a commit without a begin is reported, not thrown")
        func unbalancedCommit() {
            let session = CaptureSession()
            let notes = ObservedNotifications(.CaptureConfigurationError, object: session)
            session.commitConfiguration()
            #expect((notes.all.first?.userInfo?[CaptureSessionErrorKey] as? CaptureError)?.code == .unbalancedConfiguration)
        }
    }
}

extension SharedDevices {
    @Suite("The configuration lock is not left held")
    struct ConfigurationLockTests {
        @Test("a checked setter that throws inside withConfigurationLock leaves the lock released; assignments never throw out of a lock block")
        func scopedLock() throws {
            let device = try #require(CaptureDevice.default(for: .video))
            #expect(throws: CaptureError.self) {
                try device.withConfigurationLock { device in try device.setVideoZoomFactor(1000) }
            }
            #expect(!device.isLockedForConfiguration)
            try device.lockForConfiguration()
            device.videoZoomFactor = 1000
            device.unlockForConfiguration()
            #expect(!device.isLockedForConfiguration && device.videoZoomFactor == 1)
        }
    }
}
