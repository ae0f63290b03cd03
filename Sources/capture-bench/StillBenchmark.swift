import CaptureKit
import Foundation

/// 200 stills from a running 640x480@30 virtual-camera session: request → JPEG data latency,
/// beside the frame interval, one frame's JPEG encode time, and a cold one-shot gst-launch still.
enum StillBenchmark {
    static func run() async throws -> [String: Double] {
        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.find("virtual")))
        let output = StillImageOutput()
        try session.checked.addOutput(output)
        try await session.checked.startRunning()
        let connection = output.connection(with: .video)!
        var latencies: [Double] = []
        for index in 0..<200 {
            // Requests land at every phase of the frame interval.
            try await Task.sleep(for: .milliseconds(5 + (index * 7) % 40))
            let start = DispatchTime.now()
            let sample = try await output.captureStillImage(from: connection)
            _ = try StillImageOutput.jpegStillImageData(from: sample)
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
        }
        await session.checked.stopRunning()
        // One frame's encode: 300 frames with jpegenc minus 300 without, per frame.
        let caps = "video/x-raw,format=BGRx,width=640,height=480,framerate=30/1"
        let withEncode = try Processes.gstLaunchExecution("videotestsrc num-buffers=300 ! \(caps) ! videoconvert ! jpegenc ! fakesink")
        let without = try Processes.gstLaunchExecution("videotestsrc num-buffers=300 ! \(caps) ! videoconvert ! fakesink")
        let encode = max(0, (withEncode - without) / 300 * 1000)
        let cold = Processes.median(try (0..<5).map { _ in
            try Processes.time("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "!", "jpegenc", "!",
                                                           "filesink", "location=/tmp/capture-bench-cold.jpg"]).seconds * 1000
        })
        return ["p50_ms": Processes.percentile(latencies, 0.5), "p99_ms": Processes.percentile(latencies, 0.99),
                "frame_ms": 1000.0 / 30, "encode_ms": encode, "cold_ms": cold]
    }
}
