import CaptureKit
import Foundation

/// capture-bench: CaptureKit against plain gst-launch-1.0 in the same run.
/// Usage: capture-bench frames | still | start | switch | live | controls | scan | memory | record | stream | stream-latency | preview | live-preview | serve | kinds | camera (CAPTUREKIT_BENCH_CAMERA) | rotate | multicam | churn | segments | segments-mkv | snapshot | segments-soak | segments-boundaries | motion | all, or snap-v4l2 where vivid's
/// /dev/video0 exists (scripts/v4l2vm-bench.sh; not part of all). Each prints one JSON line last.
/// `capture-bench snap-gst FILE` is not a benchmark: it is the `swift-gst` peer snap-v4l2 times.
@main
enum Bench {
    static func main() async throws {
        let which = CommandLine.arguments.dropFirst().first ?? "all"
        if which == "snap-gst", CommandLine.arguments.count == 3 {
            return try SnapFloor.run(output: CommandLine.arguments[2])
        }
        let benches: [String: () async throws -> [String: Double]] = [
            "frames": FramesBenchmark.run, "still": StillBenchmark.run, "start": StartBenchmark.run, "switch": SwitchBenchmark.run, "live": LiveBenchmark.run, "controls": ControlsBenchmark.run,
            "scan": ScanBenchmark.run, "memory": MemoryBenchmark.run, "snap-v4l2": SnapV4L2Benchmark.run, "record": RecordBenchmark.run, "stream": StreamBenchmark.run, "stream-latency": StreamLatencyBenchmark.run,
            "preview": PreviewBenchmark.run, "live-preview": LiveBenchmark.run, "serve": ServeBenchmark.run, "kinds": KindsBenchmark.run,
            "camera": CameraBenchmark.run, "rotate": FramesBenchmark.runRotation, "multicam": MultiCamBenchmark.run, "churn": ChurnBenchmark.run, "segments": SegmentsBenchmark.run, "segments-mkv": SegmentsBenchmark.runMatroska, "snapshot": SnapshotBenchmark.run, "segments-soak": SegmentsSoakBenchmark.run, "segments-boundaries": SegmentBoundariesBenchmark.run,
            "motion": MotionBenchmark.run,
        ]
        let names = which == "all" ? ["frames", "still", "start", "switch", "live", "controls", "scan"] : [which]
        for name in names {
            guard let bench = benches[name] else {
                FileHandle.standardError.write(Data("usage: capture-bench frames|still|start|switch|live|controls|scan|memory|record|stream|stream-latency|preview|live-preview|serve|kinds|camera|rotate|multicam|churn|segments|segments-mkv|snapshot|segments-soak|segments-boundaries|motion|all, or snap-v4l2 [NAME=CAPTURE …] in v4l2vm\n".utf8))
                exit(2)
            }
            let figures = try await bench()
            let json = figures.keys.sorted().map { "\"\($0)\":\(String(format: "%.4f", figures[$0]!))" }.joined(separator: ",")
            print("# capture-bench \(name)")
            print("{\(json)}")
        }
    }
}

/// Runs gst-launch-1.0 and other processes for the comparisons.
enum Processes {
    /// Wall-clock seconds of a whole process.
    @discardableResult
    static func time(_ executable: String, _ arguments: [String]) throws -> (seconds: Double, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let start = DispatchTime.now()
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        guard process.terminationStatus == 0 else {
            throw BenchFailure(message: "\(executable) \(arguments.joined(separator: " ")) failed: \(String(decoding: data, as: UTF8.self))")
        }
        return (seconds, String(decoding: data, as: UTF8.self))
    }

    /// gst-launch-1.0's own "Execution ended after H:MM:SS.nnnnnnnnn": PLAYING to EOS, no process start-up.
    static func gstLaunchExecution(_ pipeline: String) throws -> Double {
        let (_, output) = try time("/usr/bin/gst-launch-1.0", pipeline.split(separator: " ").map(String.init))
        guard let line = output.split(separator: "\n").first(where: { $0.contains("Execution ended after") }),
              let stamp = line.split(separator: " ").last else {
            throw BenchFailure(message: "no execution time in gst-launch output: \(output)")
        }
        let parts = stamp.split(separator: ":").compactMap { Double($0) }
        return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }

    static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
