import CGStreamer
import Foundation

/// A PipeWire daemon process, as the far end of a connection to it: its PID, and its start time,
/// which tells it apart from a later process given the same PID.
struct PipeWireDaemon: Sendable, Equatable {
    let pid: Int32
    /// Field 22 of `/proc/PID/stat`: clock ticks from boot to the process's start.
    let startTime: String

    /// The process `pid` as it runs now; nil when none does.
    init?(pid: Int32) {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After the command (in parentheses, which may hold spaces), fields from the state (3rd) on.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19 else { return nil }
        self.pid = pid
        startTime = String(fields[19])
    }

    /// The daemon at the far end of the connected socket `fd`.
    init?(serving fd: Int32) {
        self.init(pid: ck_socket_peer_pid(fd))
    }

    /// The daemon listening where PipeWire's clients connect by default: `$PIPEWIRE_REMOTE`
    /// (default `pipewire-0`) in `$PIPEWIRE_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR`.
    static func servingDefaultSocket(environment: [String: String] = ProcessInfo.processInfo.environment) -> PipeWireDaemon? {
        let name = environment["PIPEWIRE_REMOTE"].flatMap { $0.isEmpty ? nil : $0 } ?? "pipewire-0"
        let path: String
        if name.hasPrefix("/") {
            path = name
        } else {
            guard let directory = environment["PIPEWIRE_RUNTIME_DIR"] ?? environment["XDG_RUNTIME_DIR"] else { return nil }
            path = directory + "/" + name
        }
        return PipeWireDaemon(pid: ck_unix_socket_peer_pid(path))
    }

    /// Whether the same process still runs.
    var isRunning: Bool { PipeWireDaemon(pid: pid) == self }
}
