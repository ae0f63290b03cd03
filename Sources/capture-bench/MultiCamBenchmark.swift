import CaptureKit
import Dispatch
import Foundation
import Synchronization

/// What the virtual cameras cost on the processors (issue 25's `hardwareCost`, a measured
/// estimate): the CPU time per pixel of one, then both, virtual cameras at 1280x720 and 30 fps
/// into BGRA video data outputs, against `gst-launch-1.0`'s live `videotestsrc` of the same
/// size into `fakesink`; and the session's `hardwareCost` against the processor share measured.
enum MultiCamBenchmark {
    static let frames = 150

    final class Counter: VideoDataOutputSampleBufferDelegate {
        let count = Atomic<Int>(0)
        func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
            count.add(1, ordering: .relaxed)
        }
    }

    static let format = (width: 1280, height: 720)

    /// CPU nanoseconds per delivered pixel, the processor share (CPU seconds per second over
    /// all processors) and the session's hardwareCost, for the cameras at `positions`.
    static func ours(_ positions: [CaptureDevice.Position]) throws -> (nsPerPixel: Double, share: Double, cost: Double) {
        let session = MultiCamSession()
        session.beginConfiguration()
        session.sessionPreset = .inputPriority
        var counters: [Counter] = []
        for position in positions {
            guard let camera = CaptureDevice.default(.builtInWideAngleCamera, for: .video, position: position),
                  let format = camera.formats.first(where: { $0.width == format.width && $0.height == format.height }) else {
                throw BenchFailure(message: "no \(position) virtual camera at 1280x720")
            }
            try camera.lockForConfiguration()
            camera.activeFormat = format
            camera.activeVideoMinFrameDuration = CMTimeMake(value: 1, timescale: 30)
            camera.unlockForConfiguration()
            let input = try CaptureDeviceInput(device: camera)
            try session.checked.addInputWithNoConnections(input)
            let output = VideoDataOutput()
            try output.setVideoSettings(.init(pixelFormat: .bgra))
            let counter = Counter()
            output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "bench.multicam.\(position)"))
            try session.checked.addOutputWithNoConnections(output)
            try session.checked.addConnection(CaptureConnection(inputPorts: input.ports(for: .video, sourceDeviceType: nil, sourceDevicePosition: position), output: output))
            counters.append(counter)
        }
        try session.checked.commitConfiguration()
        let cost = Double(session.hardwareCost)
        try session.checked.startRunning()
        defer { session.stopRunning() }
        let total = { counters.reduce(0) { $0 + $1.count.load(ordering: .relaxed) } }
        while total() < 10 * positions.count { usleep(5_000) }
        let (startFrames, startCPU, start) = (total(), RecordBenchmark.cpuSeconds(), DispatchTime.now().uptimeNanoseconds)
        while total() < startFrames + frames * positions.count { usleep(5_000) }
        let delivered = Double(total() - startFrames)
        let cpu = RecordBenchmark.cpuSeconds() - startCPU
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let pixels = delivered * Double(format.width * format.height)
        return (cpu * 1e9 / pixels, cpu / wall / Double(ProcessInfo.processInfo.activeProcessorCount), cost)
    }

    /// CPU nanoseconds per pixel of gst-launch-1.0 drawing the same frames into fakesink.
    static func gst() throws -> Double {
        let before = RecordBenchmark.cpuSeconds(children: true)
        _ = try Processes.time("/usr/bin/gst-launch-1.0", ["-q"] + ("videotestsrc is-live=true pattern=blink num-buffers=\(frames) ! "
            + "video/x-raw,format=BGRA,width=\(format.width),height=\(format.height),framerate=30/1 ! fakesink").split(separator: " ").map(String.init))
        return (RecordBenchmark.cpuSeconds(children: true) - before) * 1e9 / Double(frames * format.width * format.height)
    }

    static func run() async throws -> [String: Double] {
        var one: [Double] = [], two: [Double] = [], shares: [Double] = [], costs: [Double] = [], plain: [Double] = []
        for _ in 0..<3 {
            one.append(try ours([.back]).nsPerPixel)
            let both = try ours([.back, .front])
            two.append(both.nsPerPixel)
            shares.append(both.share)
            costs.append(both.cost)
            plain.append(try gst())
        }
        let (o, t, g) = (Processes.median(one), Processes.median(two), Processes.median(plain))
        return ["one_camera_ns_per_pixel": o, "two_cameras_ns_per_pixel": t, "gst_ns_per_pixel": g, "one_camera_vs_gst": o / g,
                "two_cameras_processor_share": Processes.median(shares), "two_cameras_hardware_cost": Processes.median(costs)]
    }
}
