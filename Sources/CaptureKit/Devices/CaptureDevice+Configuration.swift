extension CaptureDevice {
    /// Takes the device's configuration lock, which every setting change requires. The lock is
    /// advisory and held across processes: while another CaptureKit process holds it, this throws
    /// `deviceLocked` naming the holder's pid. Nested calls in one process are counted.
    public func lockForConfiguration() throws(CaptureError) {
        try configurationLock.acquire()
    }

    /// Releases one `lockForConfiguration()`.
    public func unlockForConfiguration() {
        configurationLock.release()
    }

    /// Runs `body` holding the configuration lock, and releases it however `body` ends: the
    /// checked way to configure, since a `set…()` that throws between `lockForConfiguration()`
    /// and `unlockForConfiguration()` would otherwise leave the lock, which other processes
    /// see, held. Throws `deviceLocked` when another process holds it, or what `body` throws.
    public func withConfigurationLock<Result>(_ body: (CaptureDevice) throws -> Result) throws -> Result {
        try lockForConfiguration()
        defer { unlockForConfiguration() }
        return try body(self)
    }

    /// Whether this process holds the configuration lock.
    public var isLockedForConfiguration: Bool { configurationLock.isHeld }

    /// Throws `notLocked` unless this process holds the configuration lock.
    func requireConfigurationLock() throws(CaptureError) {
        guard configurationLock.isHeld else { throw .notLocked(device: uniqueID) }
    }
}
