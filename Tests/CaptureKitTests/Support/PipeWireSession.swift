import Foundation

/// `scripts/pipewire-session.sh` run beside a test: a PipeWire daemon of its own in a private
/// runtime folder, WirePlumber and a test camera node (`capturekit-test-camera`).
enum PipeWireSession {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/pipewire-session.sh").path

    /// Ends a session whose command wrote its pid to `runtime/inner.pid`: the command is killed,
    /// so the script stops its daemons as it ends (killing the script itself would leave them).
    static func end(runtime: String, _ session: BackgroundProcess) {
        if let text = try? String(contentsOfFile: runtime + "/inner.pid", encoding: .utf8),
           let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(pid, SIGKILL)
        }
        for _ in 0..<100 where session.process.isRunning { usleep(50_000) }
        session.kill()
    }
}
