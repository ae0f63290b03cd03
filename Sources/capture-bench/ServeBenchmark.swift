import Foundation

/// `capture serve` with WebRTC viewers (issue 14): CPU seconds per second of the `capture`
/// process, 1280x720 at 30 fps from the virtual camera, measured from /proc while WHEP viewers
/// play (scripts/whep_viewers.py: GStreamer webrtcbin peers in another process, receiving and
/// depayloading, not decoding):
/// - `capture stream whep://…` with one viewer (the reference),
/// - `capture serve` with one viewer on its `/whep`,
/// - `capture serve` with five viewers (one encode shared by all).
/// The ratios: serve/stream with one viewer (target ≤ 1.1), five viewers/one (target ≤ 1.3).
enum ServeBenchmark {
    static let warmup = 3.0, seconds = 6.0

    /// scripts/whep_viewers.py: in the first folder above capture-bench (or the current one)
    /// that has it.
    static var viewersScript: String {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            let script = folder.appendingPathComponent("scripts/whep_viewers.py")
            if FileManager.default.fileExists(atPath: script.path) { return script.path }
            folder.deleteLastPathComponent()
        }
        return "scripts/whep_viewers.py"
    }

    /// CPU seconds (user + system) the process `pid` has used, from /proc/PID/stat.
    static func cpuSeconds(of pid: pid_t) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        guard let close = stat.lastIndex(of: ")") else { throw BenchFailure(message: "cannot read /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state (0), …, utime (11), stime (12), in clock ticks.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchFailure(message: "cannot read /proc/\(pid)/stat: \(stat)")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// One measurement: `capture ARGUMENTS` serving WHEP at `url` to `viewers` viewers; its CPU
    /// per second over ``seconds`` after ``warmup``, and the frames each viewer received.
    static func measure(_ arguments: [String], url: String, viewers: Int) throws -> (cpu: Double, frames: [Int]) {
        let capture = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("capture").path
        let server = try ChildProcess(capture, arguments)
        defer {
            server.interrupt()
            server.wait()
        }
        Thread.sleep(forTimeInterval: 1.5)
        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        player.arguments = [viewersScript, url, "--viewers", "\(viewers)",
                            "--seconds", "\(warmup + seconds + 1)"]
        let out = Pipe()
        player.standardOutput = out
        player.standardError = FileHandle.nullDevice
        try player.run()
        Thread.sleep(forTimeInterval: warmup)
        let before = try cpuSeconds(of: server.pid)
        let start = DispatchTime.now()
        Thread.sleep(forTimeInterval: seconds)
        let cpu = try cpuSeconds(of: server.pid) - before
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let report = out.fileHandleForReading.readDataToEndOfFile()
        player.waitUntilExit()
        let object = try? JSONSerialization.jsonObject(with: report) as? [String: Any]
        let frames = (object?["viewers"] as? [[String: Any]])?.compactMap { $0["frames"] as? Int } ?? []
        guard player.terminationStatus == 0, frames.count == viewers, frames.allSatisfy({ $0 > 0 }) else {
            throw BenchFailure(message: "the viewers of \(url) did not all play: \(String(decoding: report, as: UTF8.self))")
        }
        return (cpu / wall, frames)
    }

    static func run() async throws -> [String: Double] {
        var stream: [Double] = [], one: [Double] = [], five: [Double] = []
        let common = ["-d", "virtual", "--preset", "hd1280x720"]
        for round in 0..<3 {
            let port = 38_000 + round * 10
            stream.append(try measure(["stream"] + common + ["whep://127.0.0.1:\(port)/whep"], url: "http://127.0.0.1:\(port)/whep", viewers: 1).cpu)
            one.append(try measure(["serve"] + common + ["--listen", "127.0.0.1:\(port + 1)", "--recordings", NSTemporaryDirectory() + "serve-bench"],
                                   url: "http://127.0.0.1:\(port + 1)/whep", viewers: 1).cpu)
            five.append(try measure(["serve"] + common + ["--listen", "127.0.0.1:\(port + 2)", "--recordings", NSTemporaryDirectory() + "serve-bench"],
                                    url: "http://127.0.0.1:\(port + 2)/whep", viewers: 5).cpu)
        }
        let (s, o, f) = (Processes.median(stream), Processes.median(one), Processes.median(five))
        return ["stream_whep_1_viewer_cpu_per_s": s, "serve_1_viewer_cpu_per_s": o, "serve_5_viewers_cpu_per_s": f,
                "ratio_serve_to_stream": o / s, "ratio_5_to_1_viewers": f / o]
    }
}
