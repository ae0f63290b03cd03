import Synchronization

extension CaptureSession {
    /// A session, held weakly by the registry.
    struct WeakSession {
        weak var session: CaptureSession?
    }

    /// Every live session, so that a device whose format someone chose finds the sessions using it.
    private static let registry = Mutex<[WeakSession]>([])

    static func register(_ session: CaptureSession) {
        registry.withLock { sessions in
            sessions.removeAll { $0.session == nil }
            sessions.append(WeakSession(session: session))
        }
    }

    /// `device`'s active format or frame rate was set through its API. Sessions that use the
    /// device take it as it is: a new format makes their preset `inputPriority` (AVFoundation's
    /// rule), and a running session swaps its source for one with the new caps (after the open
    /// configuration batch, if any).
    static func deviceFormatChosen(_ device: CaptureDevice, formatChanged: Bool) {
        let sessions = registry.withLock { $0.compactMap(\.session) }
        for session in sessions where session.videoDevices.contains(device) {
            // A pipeline that cannot follow stops and posts a runtime error; the setter returns nothing.
            try? session.mutateGraph { state in
                if formatChanged { state.preset = .inputPriority }
            }
        }
    }
}
