@_spi(Benchmark) import CaptureKit
import Dispatch
import Foundation
import GStreamerSwift
import Synchronization

/// Latency from capture to a client's decoded frame (issue 12), 1280x720 at 30 fps on
/// loopback: the virtual camera stamps each frame's number into the picture (`FrameStamp`) and
/// notes when it painted it; a GStreamer client in this process receives the stream, decodes
/// it, reads the number back and subtracts. p50/p99 per protocol over `seconds` of frames.
/// Run with `capture-bench stream-latency`.
enum StreamLatencyBenchmark {
    static let seconds = 6.0

    /// A client: elements made in order and linked (a dynamic pad is linked when it appears),
    /// ending in a decoder; the decoded frames go to an appsink.
    struct Client {
        var name: String
        var target: String
        var elements: [(factory: String, properties: [(String, PropertyValue)])]
    }

    static func clients(port: Int) -> [Client] {
        var clients = [
            Client(name: "srt", target: "srt://:\(port)?latency=20", elements: [
                ("srtsrc", [("uri", .string("srt://127.0.0.1:\(port)?mode=caller&latency=20"))]), ("tsdemux", [("latency", 0)]),
                ("h264parse", []), ("avdec_h264", [("max-threads", 1)]),
            ]),
        ]
        if GStreamer.hasElement("rtspsrc") {
            clients.append(Client(name: "rtsp", target: "rtsp://:\(port + 1)/cam", elements: [
                ("rtspsrc", [("location", .string("rtsp://127.0.0.1:\(port + 1)/cam")), ("latency", 0), ("protocols", .nick("tcp"))]),
                ("rtph264depay", []), ("h264parse", []), ("avdec_h264", [("max-threads", 1)]),
            ]))
        }
        return clients
    }

    /// Milliseconds from painting to decoding, for every frame the client decoded.
    static func measure(_ client: Client) throws -> [Double] {
        FrameStamp.isEnabled = true
        defer { FrameStamp.isEnabled = false }
        let session = CaptureSession()
        try session.setSessionPreset(.hd1280x720)
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.find("virtual")))
        guard let output = try? StreamOutput(target: StreamTarget(parsing: client.target)) else {
            throw BenchFailure(message: "this build cannot stream to \(client.target)")
        }
        try session.checked.addOutput(output)
        try session.checked.startRunning()
        defer { session.stopRunning() }
        Thread.sleep(forTimeInterval: 0.5)

        let pipeline = Pipeline(name: "client-\(client.name)")
        var elements: [Element] = []
        for (index, spec) in client.elements.enumerated() {
            let element = try Element(factory: spec.factory, name: "\(client.name)\(index)")
            for (name, value) in spec.properties { try element.set(name, value) }
            pipeline.add(element)
            elements.append(element)
        }
        let sink = try Element(factory: "appsink", name: "\(client.name)_sink")
        try sink.set("sync", false)
        try sink.set("caps", .caps("video/x-raw,format=I420"))
        pipeline.add(sink)
        elements.append(sink)
        for (upstream, downstream) in zip(elements, elements.dropFirst()) {
            do {
                try upstream.link(to: downstream)
            } catch {
                let target = downstream
                upstream.onPadAdded { pad in
                    guard (pad.currentCaps ?? "").contains("video") || (pad.currentCaps ?? "").contains("application/x-rtp") else { return }
                    try? pad.link(to: target)
                }
            }
        }
        let latencies = Mutex<[Double]>([])
        AppSink.setHandlers(.init(newSample: { sample in
            let now = DispatchTime.now().uptimeNanoseconds
            guard let stamp = try? sample.withPlanes({ planes in FrameStamp.read(luma: planes[0].bytes, bytesPerRow: planes[0].bytesPerRow) }),
                  let painted = FrameStamp.paintedAt(stamp: stamp), painted <= now else { return }
            latencies.withLock { $0.append(Double(now - painted) / 1e6) }
        }), on: sink)
        try pipeline.setState(.playing)
        Thread.sleep(forTimeInterval: seconds)
        try? pipeline.setState(.null)
        let measured = latencies.withLock { $0 }
        guard measured.count > Int(seconds * 15) else {
            throw BenchFailure(message: "\(client.name): only \(measured.count) frames decoded in \(seconds) s")
        }
        // The first second settles (joining, the first key frame).
        return Array(measured.dropFirst(30))
    }

    static func run() async throws -> [String: Double] {
        var figures: [String: Double] = [:]
        for client in clients(port: 47_300) {
            // A target this build cannot stream to yet is left out.
            guard (try? StreamOutput(target: StreamTarget(parsing: client.target))) != nil else { continue }
            let latencies = try measure(client)
            figures["\(client.name)_p50_ms"] = Processes.median(latencies)
            figures["\(client.name)_p99_ms"] = Processes.percentile(latencies, 0.99)
            figures["\(client.name)_frames"] = Double(latencies.count)
        }
        return figures
    }
}
