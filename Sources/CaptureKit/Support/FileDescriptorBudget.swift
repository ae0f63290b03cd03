import Foundation

/// How many more files this process may open, read before work that opens several (a WebRTC
/// viewer's sockets and GLib's wakeup pipes, a recording's file and encoder): with too few
/// left, GLib aborts the process (`Creating pipes for GWakeup: Too many open files`) or a
/// branch fails half made. The server refuses such work with 503 instead, and its camera
/// runs on.
package enum FileDescriptorBudget {
    /// Descriptors kept free for the session's own work: a viewer takes about 20, a recording
    /// about 10, and GStreamer's threads a few each.
    package static let reserve = 64

    /// `RLIMIT_NOFILE`'s soft limit (1024 when it cannot be read).
    package static var limit: Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 1024 }
        return limits.rlim_cur == rlim_t.max ? Int(Int32.max) : Int(clamping: limits.rlim_cur)
    }

    /// Descriptors open now (the entries of /proc/self/fd, less the one that reads it).
    package static var open: Int {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { count += 1 }
        }
        return count - 1
    }

    /// Throws `deviceUnavailable` (503) naming what was asked when fewer than ``reserve``
    /// descriptors are left.
    package static func require(for work: String) throws(CaptureError) {
        let limit = limit, open = open
        guard limit - open >= reserve else {
            throw CaptureError(code: .deviceUnavailable,
                               message: "cannot \(work) now: \(open) of \(limit) file descriptors are open (RLIMIT_NOFILE), fewer than \(reserve) left; valid: try again once clients have closed connections, or raise the limit (ulimit -n)")
        }
    }
}
