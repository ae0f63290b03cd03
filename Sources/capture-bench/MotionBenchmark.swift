@_spi(Benchmark) import CaptureKit
import Dispatch
import Foundation

/// Motion detection (issue 27) on the virtual camera at 1280x720 and 30 fps: the CPU it adds to
/// a session, as a share of one core (a metadata output looking for motion at 5 fps, against the
/// same output looking for nothing, whose branch then converts no frame), alternated three
/// times, 10 s each; and the latency from a mover's first frame to the first motion object, in
/// analysed frames (the frames' own times, so the figure does not depend on the machine's load
/// beyond frames the leaky branch drops), over 20 entries.
enum MotionBenchmark {
    static let seconds = 10.0

    static func run() async throws -> [String: Double] {
        var idle: [Double] = [], motion: [Double] = []
        for _ in 0..<3 {
            idle.append(try await cpuShare(types: []))
            motion.append(try await cpuShare(types: [.motion]))
        }
        let latencies = try await latency()
        let added = zip(motion, idle).map { $0 - $1 }
        return [
            "idle_cpu_share": Processes.median(idle), "motion_cpu_share": Processes.median(motion),
            "motion_added_percent_of_core": Processes.median(added) * 100,
            "latency_analysed_frames_p50": Processes.percentile(latencies, 0.5), "latency_analysed_frames_max": latencies.max() ?? .nan,
            "latency_trials": Double(latencies.count),
        ]
    }

    /// A session's CPU seconds per second (of one core) with a metadata output looking for `types`.
    static func cpuShare(types: [MetadataObjectType]) async throws -> Double {
        let (session, _) = try MetadataSession.make(try CaptureDevice.find("virtual"), types: types)
        try await session.checked.startRunning()
        defer { session.stopRunning() }
        try await Task.sleep(for: .seconds(1))
        let before = RecordBenchmark.cpuSeconds(), start = DispatchTime.now().uptimeNanoseconds
        try await Task.sleep(for: .seconds(seconds))
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return (RecordBenchmark.cpuSeconds() - before) / wall
    }

    /// Mover entries 1.037 s apart (so they fall at every phase of the 5 fps analysis), each
    /// staying 0.5 s: for each, the first motion object's time after it entered, in analysed
    /// frame intervals.
    static func latency() async throws -> [Double] {
        let device = try CaptureDevice.find("virtual")
        let entries = (0..<20).map { 1.0 + 1.037 * Double($0) }
        let patch = CGRect(x: 0.33, y: 0.12, width: 0.15, height: 0.3)
        device.setVirtualMovers(entries.map { VirtualMover(rect: patch, enter: $0, leave: $0 + 0.5) })
        device.setVirtualSquare(.hidden)
        defer {
            device.setVirtualMovers([])
            device.setVirtualSquare(.moving)
        }
        let (session, output) = try MetadataSession.make(device, types: [.motion])
        var batches = output.metadataObjects(bufferingNewest: 256).makeAsyncIterator()
        try await session.checked.startRunning()
        defer { session.stopRunning() }
        var firsts: [Double?] = entries.map { _ in nil }
        // The last mover's departure is motion too: the last batch waited for.
        let end = entries.last! + 0.5
        while let batch = await batches.next() {
            guard let time = batch.first?.time.seconds else { continue }
            if time >= end { break }
            if let index = entries.firstIndex(where: { (($0)..<($0 + 0.5)).contains(time) }), firsts[index] == nil { firsts[index] = time }
        }
        let rate = output.motionDetection.analysisFrameRate
        return zip(entries, firsts).compactMap { entry, first in first.map { ($0 - entry) * rate } }
    }
}
