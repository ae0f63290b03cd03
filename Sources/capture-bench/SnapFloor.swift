import Foundation
import GStreamerSwift

/// `capture-bench snap-gst FILE`: the still `gst-launch-same` makes (640x480 from vivid, full-range
/// I420, `jpegenc`, `jifmux`), made by a Swift process through GStreamerSwift alone: no argument
/// parser, no device model, no session. `snap-v4l2` times it as the peer `swift-gst`, the floor a
/// Swift program pays for the same still (its runtime, Foundation and this binary's libraries).
enum SnapFloor {
    static func run(output: String) throws {
        GStreamer.initialize()
        let pipeline = Pipeline(name: "floor")
        let source = try Element(factory: "v4l2src", name: "src")
        try source.set("device", .string(SnapV4L2Benchmark.device))
        try source.set("num-buffers", 1)
        let convert = try Element(factory: "videoconvert", name: "convert")
        let encode = try Element(factory: "jpegenc", name: "encode")
        let mux = try Element(factory: "jifmux", name: "mux")
        let sink = try Element(factory: "filesink", name: "file")
        try sink.set("location", .string(output))
        for element in [source, convert, encode, mux, sink] { pipeline.add(element) }
        try source.link(to: convert, caps: "video/x-raw,width=640,height=480")
        try convert.link(to: encode, caps: "video/x-raw,format=I420,colorimetry=1:4:7:1")
        try encode.link(to: mux)
        try mux.link(to: sink)
        try pipeline.setState(.playing)
        defer { try? pipeline.setState(.null) }
        while let message = pipeline.bus.pop(timeout: 10_000_000_000) {
            switch message {
            case .endOfStream: return
            case .error(let element, let text, _, _): throw BenchFailure(message: "\(element): \(text)")
            default: continue
            }
        }
        throw BenchFailure(message: "no end of stream within 10 s")
    }
}
