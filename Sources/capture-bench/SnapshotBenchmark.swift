import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// `GET /snapshot.jpg` under polling (issue 28): `capture serve -d virtual --preset hd1280x720`
/// polled by 10 clients at 2 Hz each for ``seconds``: each request's latency (p50, p99), the
/// server's CPU while polled against while idle, and the JPEGs' size. The peer is what a
/// program without a still URL does (Home Assistant's generic camera over a stream):
/// `ffmpeg -rtsp_transport tcp -i rtsp://… -frames:v 1 out.jpg` against `capture stream
/// rtsp://…` of the same camera, connecting, waiting for a key frame and decoding it.
enum SnapshotBenchmark {
    static let pollers = 10, rate = 2.0, seconds = 20.0, idle = 5.0

    /// One poller's latencies (milliseconds) and bytes, polling `url` at ``rate`` from `offset`.
    static func poll(_ url: URL, offset: Double, until end: DispatchTime) async throws -> [(Double, Int)] {
        var results: [(Double, Int)] = []
        var next = DispatchTime.now().uptimeNanoseconds + UInt64(offset * 1e9)
        while next < end.uptimeNanoseconds {
            let now = DispatchTime.now().uptimeNanoseconds
            if next > now { try await Task.sleep(nanoseconds: next - now) }
            let start = DispatchTime.now().uptimeNanoseconds
            var request = URLRequest(url: url)
            request.cachePolicy = .reloadIgnoringLocalCacheData
            let (data, response) = try await URLSession.shared.data(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 200, data.starts(with: [0xFF, 0xD8]) else {
                throw BenchFailure(message: "\(url) answered \(response) with \(data.count) bytes")
            }
            results.append((Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, data.count))
            next += UInt64(1e9 / rate)
        }
        return results
    }

    static func capturePath() -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("capture").path
    }

    /// Ours: latencies under ``pollers`` pollers, bytes per JPEG, CPU per second polled and idle.
    static func ours(port: Int) async throws -> (latencies: [Double], bytes: Double, polledCPU: Double, idleCPU: Double) {
        let server = try ChildProcess(capturePath(), ["serve", "-d", "virtual", "--preset", "hd1280x720", "--listen", "127.0.0.1:\(port)",
                                                      "--recordings", NSTemporaryDirectory() + "snapshot-bench"])
        defer {
            server.interrupt()
            server.wait()
        }
        let url = URL(string: "http://127.0.0.1:\(port)/snapshot.jpg")!
        // Ready once a still comes back; then idle, then polled.
        var ready = false
        for _ in 0..<40 where !ready {
            try await Task.sleep(for: .milliseconds(250))
            ready = ((try? await URLSession.shared.data(from: url))?.1 as? HTTPURLResponse)?.statusCode == 200
        }
        guard ready else { throw BenchFailure(message: "capture serve answered no snapshot at \(url)") }
        try await Task.sleep(for: .seconds(2))
        let idleStart = try ServeBenchmark.cpuSeconds(of: server.pid)
        try await Task.sleep(for: .seconds(idle))
        let idleCPU = (try ServeBenchmark.cpuSeconds(of: server.pid) - idleStart) / idle
        let before = try ServeBenchmark.cpuSeconds(of: server.pid)
        let start = DispatchTime.now()
        let end = start + seconds
        let results = try await withThrowingTaskGroup(of: [(Double, Int)].self) { group in
            for index in 0..<pollers {
                group.addTask { try await poll(url, offset: Double(index) / Double(pollers) / rate, until: end) }
            }
            return try await group.reduce(into: [(Double, Int)]()) { $0 += $1 }
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let polledCPU = (try ServeBenchmark.cpuSeconds(of: server.pid) - before) / wall
        return (results.map(\.0), Double(results.reduce(0) { $0 + $1.1 }) / Double(max(1, results.count)), polledCPU, idleCPU)
    }

    /// The peer: ffmpeg taking one frame of `capture stream`'s RTSP, `count` times one after another.
    static func ffmpeg(port: Int, count: Int) throws -> [Double] {
        let server = try ChildProcess(capturePath(), ["stream", "-d", "virtual", "--preset", "hd1280x720", "rtsp://127.0.0.1:\(port)/cam"])
        defer {
            server.interrupt()
            server.wait()
        }
        Thread.sleep(forTimeInterval: 3)
        let output = NSTemporaryDirectory() + "snapshot-bench-ffmpeg.jpg"
        return try (0..<count).map { _ in
            let (taken, _) = try Processes.time("/usr/bin/ffmpeg", ["-v", "error", "-rtsp_transport", "tcp", "-i", "rtsp://127.0.0.1:\(port)/cam",
                                                                          "-frames:v", "1", "-y", output])
            guard FileManager.default.fileExists(atPath: output) else { throw BenchFailure(message: "ffmpeg wrote no frame from RTSP") }
            return taken * 1000
        }
    }

    static func run() async throws -> [String: Double] {
        let (latencies, bytes, polled, idle) = try await ours(port: 38_300)
        let peer = try ffmpeg(port: 38_310, count: 10)
        let p50 = Processes.percentile(latencies, 0.5)
        return ["requests": Double(latencies.count), "p50_ms": p50, "p99_ms": Processes.percentile(latencies, 0.99),
                "max_ms": latencies.max() ?? .nan, "jpeg_bytes": bytes, "server_cpu_per_s_polled": polled, "server_cpu_per_s_idle": idle,
                "ffmpeg_rtsp_frame_p50_ms": Processes.median(peer), "ratio_p50_to_ffmpeg": p50 / Processes.median(peer)]
    }
}
