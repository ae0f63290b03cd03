@_spi(Benchmark) import CaptureKit
import CaptureKitChurn
import Foundation

/// The segment soak (issue 27): a live 640x480 test pattern recorded in 2 s segments for
/// CAPTURE_BENCH_SOAK_SECONDS (default 7200, two hours) with a 20 MB `maxDisk` retention, so
/// segments are deleted all along. After a warm-up of a tenth of the run (at most 10 minutes),
/// resident memory and open descriptors are sampled every 30 s: their growth from the warm-up
/// to the end, and their largest rise, must stay flat (≤ 5 MB; descriptors not at all).
enum SegmentsSoakBenchmark {
    final class Events: SegmentedMovieFileOutputDelegate {
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var closed = 0, deleted = 0
        func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinish segment: MovieSegment, reason: MovieSegment.EndReason, error: CaptureError?) {
            closed += 1
        }
        func segmentedOutput(_ output: SegmentedMovieFileOutput, didDelete segment: URL, reason: String) { deleted += 1 }
        func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinishRecording error: CaptureError?) { finished.signal() }
    }

    /// Open descriptors of this process.
    static var openDescriptors: Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0 }

    static func run() async throws -> [String: Double] {
        let seconds = Double(ProcessInfo.processInfo.environment["CAPTURE_BENCH_SOAK_SECONDS"] ?? "") ?? 7200
        let directory = try RecordBenchmark.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = CaptureSession()
        try session.setSessionPreset(.inputPriority)
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.testPattern(width: 640, height: 480, isLive: true)))
        let output = SegmentedMovieFileOutput()
        try output.setSegmentDuration(CaptureTime(value: 2, timescale: 1))
        try output.setRetention(SegmentRetention(maxBytes: 20_000_000))
        try session.checked.addOutput(output)
        try await session.checked.startRunning()
        let events = Events()
        try output.startRecording(to: directory, delegate: events)
        let warmUp = min(600, seconds / 10)
        try await Task.sleep(for: .seconds(warmUp))
        let memoryStart = ResidentMemory.kilobytes, descriptorsStart = openDescriptors
        var memoryPeak = memoryStart, descriptorsPeak = descriptorsStart
        let verbose = ProcessInfo.processInfo.environment["CAPTURE_BENCH_VERBOSE"] != nil
        var elapsed = warmUp
        while elapsed < seconds {
            try await Task.sleep(for: .seconds(min(30, seconds - elapsed)))
            elapsed += min(30, seconds - elapsed)
            memoryPeak = max(memoryPeak, ResidentMemory.kilobytes)
            descriptorsPeak = max(descriptorsPeak, openDescriptors)
            if verbose { print("\(Int(elapsed)) s: \(ResidentMemory.kilobytes - memoryStart) KB, \(openDescriptors - descriptorsStart) descriptors, \(events.closed) segments") }
        }
        let memoryEnd = ResidentMemory.kilobytes, descriptorsEnd = openDescriptors
        output.stopRecording()
        guard events.finished.wait(timeout: .now() + 10) == .success else {
            throw BenchFailure(message: "the soak's recording did not finish within 10 s of its stop")
        }
        await session.checked.stopRunning()
        return [
            "seconds": seconds, "warm_up_seconds": warmUp, "segments_closed": Double(events.closed), "segments_deleted": Double(events.deleted),
            "rss_growth_kb": Double(memoryEnd - memoryStart), "rss_peak_rise_kb": Double(memoryPeak - memoryStart),
            "fd_growth": Double(descriptorsEnd - descriptorsStart), "fd_peak_rise": Double(descriptorsPeak - descriptorsStart),
        ]
    }
}
