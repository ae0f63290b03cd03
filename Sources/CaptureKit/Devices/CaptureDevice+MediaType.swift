extension CaptureDevice {
    /// Throws `unsupported(feature:device:)` for devices without video (microphones): camera
    /// settings whose own support check would let a microphone through call it after the lock
    /// check, so a microphone never takes a camera setting silently.
    func requireVideo(_ feature: String) throws(CaptureError) {
        guard hasMediaType(.video) else { throw .unsupported(feature: feature, device: uniqueID) }
    }
}
