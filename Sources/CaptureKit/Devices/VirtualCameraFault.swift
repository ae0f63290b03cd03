/// A failure the virtual camera can be made to have, as a real camera has them: for testing
/// what an app (and CaptureKit) does when a device goes away or is taken by another process.
public enum VirtualCameraFault: Sendable, Equatable {
    /// Unplugged: the device is disconnected (`isConnected` false, `wasDisconnectedNotification`),
    /// and a running source fails as an unplugged camera's does.
    case unplugged
    /// Held by another process: the device stays connected but a running source fails as a
    /// busy camera's does, and so does every attempt to open it until the fault is cleared.
    case inUseByAnotherClient
}
