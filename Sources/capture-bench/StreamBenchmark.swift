@_spi(Benchmark) import CaptureKit
import Dispatch
import Foundation

/// Streaming 1280x720 at 30 fps (issue 12): CPU seconds per second for one CaptureKit session
/// serving RTSP and SRT (a receiver reading each) and writing live HLS together — every target
/// off one encode —
/// against `gst-launch-1.0` running the same source and encoder into a fakesink (one encode,
/// nothing sent). The ratio is what serving the targets costs beyond the encode.
enum StreamBenchmark {
    static let seconds = 5.0
    static let width = 1280, height = 720

    /// The session's targets: an RTSP server and an SRT listener (an ffmpeg receiver on each), and HLS.
    static func targets(directory: URL, srt: Int, rtsp: Int) throws -> [StreamTarget] {
        [try StreamTarget(parsing: "rtsp://:\(rtsp)/cam"), try StreamTarget(parsing: "srt://:\(srt)?latency=20"),
         .hls(HLSTarget(directory: directory.appendingPathComponent("hls")))]
    }

    /// Ours: CPU per second of this process while streaming to every target, and the pipeline.
    static func ours(directory: URL, round: Int) throws -> (cpu: Double, pipeline: String, sent: [Int]) {
        let session = CaptureSession()
        try session.setSessionPreset(.inputPriority)
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.testPattern(width: width, height: height, isLive: true)))
        let srt = 47_000 + round * 2
        let rtsp = 47_100 + round * 2
        let outputs = try targets(directory: directory.appendingPathComponent("round\(round)"), srt: srt, rtsp: rtsp)
            .map { target throws(CaptureError) in try StreamOutput(target: target) }
        for output in outputs { try session.checked.addOutput(output) }
        try session.checked.startRunning()
        defer { session.stopRunning() }
        let receivers = [
            try ChildProcess("/usr/bin/ffmpeg", ["-v", "quiet", "-i", "srt://127.0.0.1:\(srt)?mode=caller", "-c", "copy", "-f", "null", "-"]),
            try ChildProcess("/usr/bin/ffmpeg", ["-v", "quiet", "-rtsp_transport", "tcp", "-i", "rtsp://127.0.0.1:\(rtsp)/cam", "-c", "copy", "-f", "null", "-"]),
        ]
        Thread.sleep(forTimeInterval: 1.5)
        let before = RecordBenchmark.cpuSeconds()
        let start = DispatchTime.now()
        Thread.sleep(forTimeInterval: seconds)
        let cpu = RecordBenchmark.cpuSeconds() - before
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let clients = outputs.map(\.statistics.clients)
        for receiver in receivers {
            receiver.interrupt()
            receiver.wait()
        }
        let pipeline = session.pipelineDescription
        guard outputs.allSatisfy({ $0.statistics.framesSent > 0 }), clients[0] >= 1, clients[1] >= 1 else {
            throw BenchFailure(message: "a target sent nothing: \(outputs.map { "\($0.target.description): \($0.statistics)" })")
        }
        return (cpu / wall, pipeline, outputs.map(\.statistics.framesSent))
    }

    /// The session's source and encoder, into a fakesink: everything up to the encoded stage's
    /// caps filter after its encoder and parser (before its tee and drain) of `pipeline`.
    static func encodeOnly(_ pipeline: String) throws -> [String] {
        guard let caps = pipeline.range(of: #"capsfilter name=enc[0-9a-f]+_h264 caps=\S+"#, options: .regularExpression) else {
            throw BenchFailure(message: "no encoded stage in \(pipeline)")
        }
        return (String(pipeline[..<caps.upperBound]) + " ! fakesink sync=false").split(separator: " ").map(String.init)
    }

    /// gst-launch-1.0 running `arguments` for `seconds`: its CPU per second. Fails when it
    /// ended early (a pipeline it could not run).
    static func gst(_ arguments: [String]) throws -> Double {
        let before = RecordBenchmark.cpuSeconds(children: true)
        let start = DispatchTime.now()
        let process = try ChildProcess("/usr/bin/gst-launch-1.0", arguments)
        Thread.sleep(forTimeInterval: seconds + 1)
        var status: Int32 = 0
        guard waitpid(process.pid, &status, WNOHANG) == 0 else {
            throw BenchFailure(message: "gst-launch-1.0 ended early: \(arguments.joined(separator: " "))")
        }
        process.interrupt()
        process.wait()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return (RecordBenchmark.cpuSeconds(children: true) - before) / wall
    }

    static func run() async throws -> [String: Double] {
        let directory = try RecordBenchmark.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var ours: [Double] = [], gst: [Double] = []
        for round in 0..<3 {
            let result = try Self.ours(directory: directory, round: round)
            ours.append(result.cpu)
            gst.append(try Self.gst(try encodeOnly(result.pipeline)))
        }
        return ["ours_cpu_per_s": Processes.median(ours), "gst_one_encode_cpu_per_s": Processes.median(gst),
                "ratio_gst": Processes.median(ours) / Processes.median(gst)]
    }
}
