import Synchronization

extension CaptureSession {
    /// A session, held weakly by the devices it uses.
    struct WeakSession {
        weak var session: CaptureSession?
    }

    /// `device`'s active format or frame rate was set through its API. Sessions that use the
    /// device take it as it is: a new format makes their preset `inputPriority` (AVFoundation's
    /// rule), and a running session swaps its source for one with the new caps (after the open
    /// configuration batch, if any).
    static func deviceFormatChosen(_ device: CaptureDevice, formatChanged: Bool) {
        for session in device.sessions where session.videoDevices.contains(device) {
            // A pipeline that cannot follow stops and posts a runtime error; the setter returns nothing.
            try? session.mutateGraph { state in
                if formatChanged { state.preset = .inputPriority }
            }
        }
    }
}

extension CaptureDevice {
    /// The sessions this device's inputs were added to that still exist (some may have removed
    /// the input since); every handle of the device shares them.
    var sessions: [CaptureSession] {
        state.sessions.withLock { $0.compactMap(\.session) }
    }

    /// Notes that an input of this device was added to `session`, so that a format chosen on
    /// the device reaches it.
    func joined(_ session: CaptureSession) {
        state.sessions.withLock { sessions in
            sessions.removeAll { $0.session == nil }
            if !sessions.contains(where: { $0.session === session }) { sessions.append(CaptureSession.WeakSession(session: session)) }
        }
    }
}
