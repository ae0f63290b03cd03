import Foundation
import Synchronization

/// An advisory lock per device, held across processes: `flock` on a file named after the
/// device's uniqueID, holding the holder's pid so that others can say who has it.
///
/// Within one process the lock is counted, so nested `lockForConfiguration()` calls succeed.
/// A device that exists only in this process (the virtual cameras and microphone, one set per
/// `CaptureContext`) has no file: no other process can reach it, and another context's
/// `virtual:back` is another device with the same uniqueID.
final class DeviceConfigurationLock: Sendable {
    /// Where lock files live: `$XDG_RUNTIME_DIR/capturekit`, else `/tmp/capturekit-<uid>`.
    static var directory: String {
        if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/capturekit"
        }
        return "/tmp/capturekit-\(getuid())"
    }

    /// The lock file of a device.
    static func path(for uniqueID: String) -> String {
        let safe = uniqueID.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" }
        return directory + "/" + String(safe) + ".lock"
    }

    /// The lock file; nil for a device of this process only.
    private let path: String?
    private let device: String
    private let held = Mutex<(descriptor: Int32, count: Int)?>(nil)

    init(uniqueID: String, acrossProcesses: Bool) {
        path = acrossProcesses ? Self.path(for: uniqueID) : nil
        device = uniqueID
    }

    /// Whether this process holds the lock.
    var isHeld: Bool { held.withLock { $0 != nil } }

    /// Takes the lock, or counts one more hold. Throws `deviceLocked` with the holder's pid when
    /// another process has it.
    func acquire() throws(CaptureError) {
        try held.withLock { held throws(CaptureError) in
            if let current = held {
                held = (current.descriptor, current.count + 1)
                return
            }
            guard let path else {
                held = (-1, 1)
                return
            }
            mkdir(Self.directory, 0o700)
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw .accessDenied(device: device, reason: "cannot open lock file \(path): \(String(cString: strerror(errno)))")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let holder = Self.readPID(descriptor)
                close(descriptor)
                throw .deviceLocked(device: device, holderPID: holder)
            }
            let pid = Array("\(getpid())\n".utf8)
            _ = ftruncate(descriptor, 0)
            _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            held = (descriptor, 1)
        }
    }

    /// Releases one hold; the last one unlocks.
    func release() {
        held.withLock { held in
            guard let current = held else { return }
            if current.count > 1 {
                held = (current.descriptor, current.count - 1)
                return
            }
            held = nil
            guard current.descriptor >= 0 else { return }
            _ = ftruncate(current.descriptor, 0)
            flock(current.descriptor, LOCK_UN)
            close(current.descriptor)
        }
    }

    private static func readPID(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 31, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
