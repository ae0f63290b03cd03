import GStreamerSwift
import Synchronization

extension CaptureDevice {
    /// Makes a virtual camera fail as a real one would (`nil` ends the fault: an unplugged
    /// camera is plugged in again, a busy one freed). A session running the camera is
    /// interrupted (`CaptureSession.wasInterruptedNotification`) and resumes when the fault ends.
    /// Throws `unsupported` for any other device.
    public func injectFault(_ fault: VirtualCameraFault?) throws(CaptureError) {
        guard backend is VirtualCameraBackend else { throw .unsupported(feature: "fault injection (virtual cameras only)", device: uniqueID) }
        let (was, wasConnected) = withState { state -> (VirtualCameraFault?, Bool) in
            defer {
                state.virtualFault = fault
                state.isConnected = fault != .unplugged
            }
            return (state.virtualFault, state.isConnected)
        }
        guard was != fault else { return }
        if fault == .unplugged { CaptureDevice.post(CaptureDevice.wasDisconnectedNotification, for: self) }
        if !wasConnected && fault != .unplugged { CaptureDevice.post(CaptureDevice.wasConnectedNotification, for: self) }
    }

    /// The fault injected into a virtual camera, if any.
    public var injectedFault: VirtualCameraFault? { readState { $0.virtualFault } }

    /// Makes a virtual camera's source fail while a fault is injected: the first frame after
    /// the fault begins is dropped and `element` posts the error an unplugged or busy camera's
    /// source posts; later frames are dropped. Installed on the source element's pad.
    func installFaults(on pad: Pad, element: Element) {
        let reported = ReportedOnce()
        pad.addBufferProbe { [weak self, weak element] _ in
            guard let self, let fault = readState({ $0.virtualFault }) else { return .pass }
            if reported.first() {
                element?.postDeviceError(fault == .unplugged ? .deviceFailed : .deviceBusy,
                                         message: fault == .unplugged ? "Virtual camera '\(uniqueID)' was unplugged." : "Virtual camera '\(uniqueID)' is busy.")
            }
            return .drop
        }
    }
}

/// True the first time it is asked, from any thread.
final class ReportedOnce: Sendable {
    private let done = Atomic<Bool>(false)
    func first() -> Bool { !done.exchange(true, ordering: .acquiringAndReleasing) }
}
