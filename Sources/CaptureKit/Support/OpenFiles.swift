import Foundation

/// Which processes have a file open, read from /proc.
enum OpenFiles {
    /// Whether a process other than this one has `path` (resolved) open: one of its
    /// `/proc/PID/fd` links names it. Processes whose descriptors cannot be read are skipped.
    static func otherProcessesHaveOpen(_ path: String, proc: String = "/proc", ownPID: Int32 = getpid()) -> Bool {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: proc) else { return false }
        for entry in entries {
            guard let pid = Int32(entry), pid != ownPID,
                  let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "\(proc)/\(entry)/fd") else { continue }
            for descriptor in descriptors where (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(proc)/\(entry)/fd/\(descriptor)")) == path {
                return true
            }
        }
        return false
    }
}
