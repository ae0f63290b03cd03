import CaptureFiles
import CaptureKit
import Foundation

/// What `capture stream` tells while it runs and when it ends: a progress line on a terminal,
/// each target's failures and recoveries as they happen, the RTP SDP once known, and a line
/// per target at the end.
final class StreamReport: @unchecked Sendable {
    let outputs: [StreamOutput]
    private let started = Date()
    private var lastBytes: Int64 = 0
    private var lastFrames = 0
    private var lastTime = Date()
    private var reported: [String: String] = [:]
    private var sdpWritten = false

    init(outputs: [StreamOutput]) {
        self.outputs = outputs
    }

    /// Every half second until `stop` fires: notes status changes, writes the SDP, redraws the
    /// progress line when `terminal`.
    func watch(until stop: StopSignal, sdpFile: String?, terminal: Bool) async {
        while !stop.isFired {
            noteChanges()
            writeSDP(to: sdpFile)
            if terminal { ProgressLine.show(progress()) }
            try? await Task.sleep(for: .milliseconds(terminal ? 500 : 100))
        }
        if terminal { ProgressLine.clear() }
        writeSDP(to: sdpFile)
    }

    /// e.g. `00:12.5  2 clients  2.8 Mbit/s  30.0 fps  0 dropped`.
    func progress() -> String {
        let now = Date()
        let stats = outputs.map(\.statistics)
        let bytes = stats.reduce(Int64(0)) { $0 + $1.bytesSent }
        let frames = stats.map(\.framesSent).max() ?? 0
        let seconds = max(now.timeIntervalSince(lastTime), 0.001)
        let bitrate = Double(bytes - lastBytes) * 8 / seconds / Double(max(outputs.count, 1))
        let fps = Double(frames - lastFrames) / seconds
        (lastBytes, lastFrames, lastTime) = (bytes, frames, now)
        let clients = stats.reduce(0) { $0 + $1.clients }
        return [ProgressLine.clock(now.timeIntervalSince(started)), "\(clients) client\(clients == 1 ? "" : "s")",
                String(format: "%.1f Mbit/s", bitrate / 1e6), String(format: "%.1f fps", fps),
                "\(stats.reduce(0) { $0 + $1.framesDropped }) dropped"].joined(separator: "  ")
    }

    /// Notes a target failing, and coming back.
    private func noteChanges() {
        for output in outputs {
            let key = output.target.description
            let text: String = switch output.status {
            case .failed(let error, let retryAt?):
                "\(key): \(error.message); calling again in "
                    + String(format: "%.1f s", max(0, Double(Int64(retryAt) - Int64(DispatchTime.now().uptimeNanoseconds)) / 1e9))
            case .failed(let error, nil): "\(key): \(error.message)"
            case .streaming: reported[key] == nil ? "" : "\(key): streaming again"
            case .idle: ""
            }
            let previous = reported[key]
            guard !text.isEmpty, previous?.prefix(40) != text.prefix(40) else { continue }
            if previous == nil, text.hasSuffix("streaming again") { continue }
            reported[key] = text
            Record.note(text)
        }
    }

    /// The first rtp:// target's SDP, once known: to `file`, or standard output.
    private func writeSDP(to file: String?) {
        guard !sdpWritten, let sdp = outputs.lazy.compactMap(\.sessionDescription).first else { return }
        sdpWritten = true
        if let file {
            do {
                try sdp.write(toFile: file, atomically: true, encoding: .utf8)
            } catch {
                Record.note("cannot write the SDP to \(file): \(error.localizedDescription)")
            }
        } else {
            FileHandle.standardOutput.write(Data(sdp.utf8))
        }
    }

    /// A line per target: frames and bytes sent, dropped frames, reconnections.
    func summary() -> [String] {
        outputs.map { output in
            let stats = output.statistics
            var line = "\(output.target.description): \(stats.framesSent) frames, \(ByteCount(bytes: stats.bytesSent)), \(stats.framesDropped) dropped"
            if stats.reconnects > 0 { line += ", \(stats.reconnects) reconnection\(stats.reconnects == 1 ? "" : "s")" }
            return line
        }
    }

    /// When every target failed for good (a port in use, say), the command fails.
    func failure() -> RuntimeFailure? {
        let errors = outputs.compactMap { output -> String? in
            if case .failed(let error, nil) = output.status { error.message } else { nil }
        }
        guard errors.count == outputs.count, !errors.isEmpty else { return nil }
        return RuntimeFailure(message: errors.joined(separator: "; "))
    }
}
