import CaptureKit
import Foundation
import GStreamerSwift

/// Start to first frame for each kind of device this machine has (the virtual camera, a video
/// file, a still image, the screen of an Xvfb display of its own, the virtual microphone),
/// against the same source elements built directly on the GStreamer layer (PLAYING → first
/// buffer at an appsink), in the same run. Cameras behind V4L2, libcamera and PipeWire are
/// `CameraBenchmark`'s.
enum KindsBenchmark {
    /// A 640x480 clip and image made by gst-launch-1.0.
    static func files() throws -> (video: URL, image: URL) {
        let directory = URL(fileURLWithPath: "/tmp/capture-bench-kinds")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let video = directory.appendingPathComponent("clip.mp4"), image = directory.appendingPathComponent("still.png")
        _ = try Processes.time("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=60", "!", "video/x-raw,width=640,height=480,framerate=30/1",
                                                          "!", "x264enc", "!", "mp4mux", "!", "filesink", "location=\(video.path)"])
        _ = try Processes.time("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "!", "video/x-raw,width=640,height=480", "!",
                                                          "pngenc", "!", "filesink", "location=\(image.path)"])
        return (video, image)
    }

    /// startRunning() → first frame (a microphone: first audio buffer) in Swift from `device`,
    /// in milliseconds.
    static func ours(_ device: CaptureDevice) throws -> Double {
        let session = CaptureSession()
        try session.checked.addInput(CaptureDeviceInput(device: device))
        let first = StartBenchmark.FirstFrame()
        if device.hasMediaType(.audio) {
            let output = AudioDataOutput()
            output.setSampleBufferDelegate(first, queue: DispatchQueue(label: "bench.kinds"))
            try session.checked.addOutput(output)
        } else {
            try session.setSessionPreset(.vga640x480)
            let output = VideoDataOutput()
            output.setSampleBufferDelegate(first, queue: DispatchQueue(label: "bench.kinds"))
            try session.checked.addOutput(output)
        }
        return try StartBenchmark.timeFirstFrame(session, first)
    }

    /// `chain` (a source first) linked in order into an appsink; PLAYING → first buffer, in
    /// milliseconds.
    static func direct(_ chain: [DirectChain.Part]) throws -> Double {
        let (pipeline, sink) = try DirectChain.make(chain, name: "direct-kind")
        return try StartBenchmark.timeFirstSample(pipeline, sink: sink)
    }

    /// The screen's source as CaptureKit builds it: `ximagesrc` (no damage, with the pointer),
    /// `videoconvert`, 640x480 BGRx at 30 fps.
    static func directScreen(_ display: String) throws -> Double {
        try direct([("ximagesrc", [("display-name", .string(display)), ("use-damage", false), ("show-pointer", true)]), ("videoconvert", []),
                    ("capsfilter", [("caps", .caps("video/x-raw,format=BGRx,width=640,height=480,framerate=30/1"))])])
    }

    /// The virtual microphone's source: a live `audiotestsrc` of silence in 10 ms buffers, 48 kHz stereo S16LE.
    static func directMicrophone() throws -> Double {
        try direct([("audiotestsrc", [("is-live", true), ("wave", .nick("silence")), ("samplesperbuffer", 480)]), ("capsfilter", [("caps", .caps("audio/x-raw,format=S16LE,rate=48000,channels=2"))])])
    }

    /// The file camera's source built directly: `filesrc ! decodebin ! videoconvert ! videoscale`,
    /// then `imagefreeze is-live=true` (image) or `videorate ! clocksync` (video), 640x480 BGRA
    /// caps and an appsink; PLAYING → first buffer, in milliseconds.
    static func direct(file: URL, isImage: Bool) throws -> Double {
        let pipeline = Pipeline(name: "direct-file")
        let source = try Element(factory: "filesrc", name: "src")
        try source.set("location", .string(file.path))
        let decode = try Element(factory: "decodebin", name: "decode")
        let chain = try ["videoconvert", "videoscale"].map { try Element(factory: $0, name: $0) }
            + (isImage ? [try Element(factory: "imagefreeze", name: "freeze")] : [try Element(factory: "videorate", name: "rate"), try Element(factory: "clocksync", name: "sync")])
        if isImage { try chain[2].set("is-live", true) }
        let filter = try Element(factory: "capsfilter", name: "caps")
        try filter.set("caps", .caps("video/x-raw,format=BGRA,width=640,height=480,framerate=30/1"))
        let sink = try Element(factory: "appsink", name: "sink")
        try sink.set("sync", false)
        for element in [source, decode] + chain + [filter, sink] { pipeline.add(element) }
        try source.link(to: decode)
        let convert = chain[0]
        decode.onPadAdded { pad in
            if pad.isRawVideo { try? pad.link(to: convert) }
        }
        for (from, to) in zip(chain + [filter], chain.dropFirst() + [filter, sink]) { try from.link(to: to) }
        return try StartBenchmark.timeFirstSample(pipeline, sink: sink)
    }

    static func run() async throws -> [String: Double] {
        let files = try files()
        let video = try CaptureDevice(fileURL: files.video), image = try CaptureDevice(fileURL: files.image)
        let virtual = try CaptureDevice.find("virtual")
        let display = try VirtualDisplay(width: 640, height: 480)
        let screen = try CaptureDevice.find("screen:" + display.name)
        let microphone = try CaptureDevice.find("virtual:microphone")
        var runs: [String: [Double]] = [:]
        for round in 0..<11 {
            let times = [("virtual_ms", try ours(virtual)), ("virtual_gst_ms", try StartBenchmark.direct()),
                         ("file_video_ms", try ours(video)), ("file_video_gst_ms", try direct(file: files.video, isImage: false)),
                         ("file_image_ms", try ours(image)), ("file_image_gst_ms", try direct(file: files.image, isImage: true)),
                         ("screen_ms", try ours(screen)), ("screen_gst_ms", try directScreen(display.name)),
                         ("microphone_ms", try ours(microphone)), ("microphone_gst_ms", try directMicrophone())]
            guard round > 0 else { continue }  // the first round warms caches and the registry
            for (name, ms) in times { runs[name, default: []].append(ms) }
        }
        var result = runs.mapValues(Processes.median)
        for kind in ["virtual", "file_video", "file_image", "screen", "microphone"] {
            result["\(kind)_ratio"] = result["\(kind)_ms"]! / result["\(kind)_gst_ms"]!
        }
        return result
    }
}
