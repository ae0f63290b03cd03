import CaptureKit
import Foundation
import Synchronization

/// Outputs added to and removed from a running session (issue 10): a 640x480@30 virtual-camera
/// session whose VideoDataOutput frames are collected from `sampleBuffers(bufferingNewest: 4096)`
/// while, 20 times, a StillImageOutput and a MetadataOutput (QR) are added in one
/// begin/commit, a second VideoDataOutput (the probe) in its own begin/commit 0–33 ms later (a
/// different phase of the frame interval each cycle), and ~100 ms after the first commit
/// all three removed in one begin/commit, then ~100 ms of rest. Figures in frame intervals
/// (1/30 s): the largest step between consecutive presentation times, the largest gap between
/// consecutive arrivals, steps that stand still or go back, and the time from calling the
/// probe's `commitConfiguration()` to its first frame; and how long each commit blocks. The
/// reference, in the same run: a plain VideoDataOutput session left alone for as long.
///
/// A cycle in which frames stop (the probe gets no frame within 1 s of its commit, or the
/// session's output none within 1 s of the removal) is counted in `stalls`; that session is
/// stopped and a new one continues the cycles. Stalled cycles are not in the cycle figures, and
/// frame figures are over each session's frames up to its stall.
///
/// `capture-bench live-preview` (issue 14) adds a `.window` VideoPreview, shown under an Xvfb of
/// its own, to the outputs each cycle adds and removes.
enum LiveBenchmark {
    static let interval = 1.0 / 30
    static let withPreview = CommandLine.arguments.dropFirst().first == "live-preview"
    static let cycles = 20

    struct Frame {
        var pts: Int64
        var arrival: UInt64
    }

    /// Every frame a VideoDataOutput stream delivers: its presentation time, and when the
    /// consumer received it (uptime nanoseconds).
    final class FrameLog: Sendable {
        private let frames = Mutex<[Frame]>([])
        private let consumer = Mutex<Task<Void, Never>?>(nil)

        init(_ output: VideoDataOutput) {
            let stream = output.sampleBuffers(bufferingNewest: 4096)
            let task = Task.detached { [weak self] in
                for await sample in stream {
                    let now = DispatchTime.now().uptimeNanoseconds
                    self?.frames.withLock { $0.append(Frame(pts: sample.presentationTime.nanoseconds, arrival: now)) }
                }
            }
            consumer.withLock { $0 = task }
        }

        func finish() { consumer.withLock { $0?.cancel() } }

        /// When the newest frame arrived (0 before the first).
        var lastArrival: UInt64 { frames.withLock { $0.last?.arrival ?? 0 } }

        /// Over the frames that arrived in `start...end`: the largest presentation-time step and
        /// arrival gap in frame intervals, the steps ≤ 0, and the number of frames.
        func figures(from start: UInt64, to end: UInt64) -> (ptsStep: Double, gap: Double, backwards: Int, count: Int) {
            let window = frames.withLock { $0.filter { $0.arrival >= start && $0.arrival <= end } }
            let pairs = zip(window, window.dropFirst())
            let steps = pairs.map { Double($1.pts - $0.pts) / 1e9 }
            let gaps = pairs.map { Double($1.arrival - $0.arrival) / 1e9 }
            return ((steps.max() ?? 0) / interval, (gaps.max() ?? 0) / interval, steps.filter { $0 <= 0 }.count, window.count)
        }
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
    static func ms(_ from: UInt64, _ to: UInt64) -> Double { Double(to - from) / 1e6 }
    static func sleep(until deadline: UInt64) {
        let left = Int64(deadline) - Int64(now())
        if left > 0 { Thread.sleep(forTimeInterval: Double(left) / 1e9) }
    }

    static func makeSession() throws -> (CaptureSession, VideoDataOutput) {
        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.find("virtual")))
        let output = VideoDataOutput()
        try session.checked.addOutput(output)
        return (session, output)
    }

    struct Cycle {
        var addCommitMs: Double
        var probeCommitMs: Double
        var removeCommitMs: Double
        var firstSampleIntervals: Double
    }

    /// The session stopped delivering frames during a cycle (see BENCHMARKS.md, "Live runtime").
    struct Stall: Error {}

    /// One add/remove cycle on the running session; throws `Stall` when frames stop: the probe
    /// gets none within 1 s of its commit, or the session's own output none within 1 s of the
    /// removal.
    static func cycle(_ session: CaptureSession, _ log: FrameLog, index: Int) throws -> Cycle {
        let still = StillImageOutput(), metadata = MetadataOutput(), preview = VideoPreview()
        try metadata.setMetadataObjectTypes([.qr])
        session.beginConfiguration()
        try session.checked.addOutput(still)
        try session.checked.addOutput(metadata)
        if withPreview { try session.checked.addOutput(preview) }
        let added = now()
        try session.checked.commitConfiguration()
        let addCommitMs = ms(added, now())

        // The probe's commit lands at a different phase of the frame interval in each cycle.
        sleep(until: added + UInt64((index * 7) % 34) * 1_000_000)
        let probe = VideoDataOutput(), first = StartBenchmark.FirstFrame()
        probe.setSampleBufferDelegate(first, queue: DispatchQueue(label: "bench.live.probe"))
        session.beginConfiguration()
        try session.checked.addOutput(probe)
        let probeStart = now()
        try session.checked.commitConfiguration()
        let probeCommitMs = ms(probeStart, now())
        let delivered = first.signal.wait(timeout: .now() + .seconds(1)) == .success
        if withPreview && preview.sinkName == nil {
            throw BenchFailure(message: "the preview shows nothing: \(preview.failure.map { "\($0)" } ?? "not started")")
        }

        if delivered { sleep(until: added + 100_000_000) }
        session.beginConfiguration()
        try session.checked.removeOutput(still)
        try session.checked.removeOutput(metadata)
        try session.checked.removeOutput(probe)
        if withPreview { try session.checked.removeOutput(preview) }
        let removed = now()
        try session.checked.commitConfiguration()
        let removeCommitMs = ms(removed, now())
        guard delivered else { throw Stall() }
        sleep(until: removed + 100_000_000)
        while log.lastArrival < removed {
            guard now() < removed + 1_000_000_000 else { throw Stall() }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return Cycle(addCommitMs: addCommitMs, probeCommitMs: probeCommitMs, removeCommitMs: removeCommitMs,
                     firstSampleIntervals: Double(first.arrived.load(ordering: .relaxed) - probeStart) / 1e9 / interval)
    }

    /// The live session: one warm-up cycle (the first loads jpegenc, jifmux and the barcode
    /// reader), then the measured cycles; frame figures cover the warm-up cycle too. When the
    /// session stalls, the stall is counted, the session is stopped and a new one started, and
    /// the cycles go on; frame figures are then over each session's frames up to its stall.
    static func live() throws -> (figures: [String: Double], seconds: Double) {
        var results: [Cycle] = [], stalls = 0, warmup: Cycle?
        var step = 0.0, gap = 0.0, backwards = 0, count = 0, seconds = 0.0
        var index = 0
        while index <= cycles {
            let (session, output) = try makeSession()
            let log = FrameLog(output)
            try session.checked.startRunning()
            Thread.sleep(forTimeInterval: 0.3)
            let start = now()
            var end: UInt64 = 0
            do {
                while index <= cycles {
                    let result = try cycle(session, log, index: index)
                    if index == 0 { warmup = result } else { results.append(result) }
                    index += 1
                }
                end = now()
                Thread.sleep(forTimeInterval: 0.1)  // the last frames of the window reach the consumer
            } catch is Stall {
                stalls += 1
                index += 1
                end = log.lastArrival
            }
            session.stopRunning()
            log.finish()
            let figures = log.figures(from: start, to: end)
            step = max(step, figures.ptsStep)
            gap = max(gap, figures.gap)
            backwards += figures.backwards
            count += figures.count
            seconds += Double(end - start) / 1e9
        }
        var figures: [String: Double] = [
            "max_pts_step_intervals": step, "max_delivery_gap_intervals": gap, "backwards_steps": Double(backwards), "frames": Double(count),
            "stalls": Double(stalls), "cycles_measured": Double(results.count),
        ]
        if let warmup {
            figures["warmup_add_commit_ms"] = warmup.addCommitMs
            figures["warmup_first_sample_intervals"] = warmup.firstSampleIntervals
        }
        if !results.isEmpty {
            let commits = results.flatMap { [$0.addCommitMs, $0.probeCommitMs, $0.removeCommitMs] }
            let firsts = results.map(\.firstSampleIntervals)
            figures["first_sample_after_commit_intervals_median"] = Processes.median(firsts)
            figures["first_sample_after_commit_intervals_max"] = firsts.max()!
            figures["commit_ms_median"] = Processes.median(commits)
            figures["commit_ms_max"] = commits.max()!
            figures["add_commit_ms_median"] = Processes.median(results.map(\.addCommitMs))
            figures["probe_commit_ms_median"] = Processes.median(results.map(\.probeCommitMs))
            figures["remove_commit_ms_median"] = Processes.median(results.map(\.removeCommitMs))
        }
        return (figures, seconds)
    }

    /// The reference: a plain VideoDataOutput session, no changes, for `seconds`.
    static func baseline(seconds: Double) throws -> [String: Double] {
        let (session, output) = try makeSession()
        let log = FrameLog(output)
        try session.checked.startRunning()
        defer {
            session.stopRunning()
            log.finish()
        }
        Thread.sleep(forTimeInterval: 0.3)
        let start = now()
        Thread.sleep(forTimeInterval: seconds)
        let end = now()
        Thread.sleep(forTimeInterval: 0.1)
        let (step, gap, backwards, count) = log.figures(from: start, to: end)
        return ["baseline_max_pts_step_intervals": step, "baseline_max_delivery_gap_intervals": gap,
                "baseline_backwards_steps": Double(backwards), "baseline_frames": Double(count)]
    }

    static func run() async throws -> [String: Double] {
        let display = withPreview ? try VirtualDisplay(width: 800, height: 600) : nil
        if let display { setenv("DISPLAY", display.name, 1) }
        defer { withExtendedLifetime(display) {} }
        // Blocking calls and sleeps on a thread of their own: the stream consumers keep the
        // cooperative pool.
        let result: Result<[String: Double], any Error> = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: Result {
                    var (figures, seconds) = try live()
                    figures.merge(try baseline(seconds: seconds)) { $1 }
                    figures["seconds"] = seconds
                    return figures
                })
            }.start()
        }
        return try result.get()
    }
}
