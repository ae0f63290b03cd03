import CGStreamer
import CGStreamerSys

extension Element {
    /// Keeps libcamera's camera manager alive until the process exits, given a `libcamerasrc`.
    /// Elements before libcamera 0.3 free the manager when they close, although buffers they
    /// gave out may still be held; releasing those later crashes (libcamera bug 211). One held
    /// reference to the plugin's own manager prevents that; later calls do nothing. False when
    /// the plugin does not export its manager (then nothing is held).
    @discardableResult
    public func keepLibcameraManager() -> Bool {
        ck_libcamera_keep_camera_manager(pointer.raw) == 0
    }
}
