@_spi(Benchmark) import CaptureKit
import CaptureKitChurn
import Foundation

/// The runtime churn at length (`SessionChurn`, the operations `make test` runs 300 of): 10,000
/// operations by default (CAPTURE_BENCH_CHURN_OPERATIONS, seed CAPTURE_BENCH_CHURN_SEED, 26).
/// Reports the run's length and rate, the executor's longest step, the longest gap in the
/// frames of the output that stays, resident memory growth from operation 50 to the end (and
/// per recording), and every invariant's count of violations: times gone back, stops the
/// session made by itself, recordings that did not finish or finished unusable, pipelines not
/// freed. It throws when an invariant fails, naming the seed.
enum ChurnBenchmark {
    static func run() async throws -> [String: Double] {
        let environment = ProcessInfo.processInfo.environment
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("capture-bench-churn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = SessionChurn.Options(seed: environment["CAPTURE_BENCH_CHURN_SEED"].flatMap(UInt64.init) ?? 26,
                                           operations: environment["CAPTURE_BENCH_CHURN_OPERATIONS"].flatMap(Int.init) ?? 10_000, folder: folder)
        let report = try await SessionChurn.run(options, context: CaptureContext())
        let unfinished = report.recordings.filter { $0.finished == nil }.count
        let failed = report.recordings.filter { recording in
            guard case .some(.some(let error)) = recording.finished else { return false }
            return !error.recordingSuccessfullyFinished && error.code != .noDataCaptured
        }.count
        let empty = report.recordings.filter { recording in
            guard case .some(.none) = recording.finished else { return false }
            return ((try? FileManager.default.attributesOfItem(atPath: recording.url.path)[.size] as? Int) ?? 0) == 0
        }.count
        let growth = Double(report.residentAtEnd - report.residentAfterWarmUp) / 1e6
        let figures: [String: Double] = [
            "operations": Double(options.operations), "seconds": report.seconds, "operations_per_second": Double(options.operations) / max(report.seconds, 1),
            "longest_executor_step_ms": Double(report.longestExecutorStep.components.attoseconds) / 1e15 + Double(report.longestExecutorStep.components.seconds) * 1000,
            "longest_frame_gap_ms": report.longestGap * 1000, "frames": Double(report.frames),
            "recordings": Double(report.recordings.count), "recordings_unfinished": Double(unfinished), "recordings_failed": Double(failed),
            "recordings_empty": Double(empty), "times_back": Double(report.backwards.count), "stopped_by_itself": Double(report.unexpectedStops.count),
            "pipelines": Double(report.pipelines), "pipelines_outlived": Double(report.pipelinesOutlived),
            "resident_growth_mb": growth, "resident_growth_kb_per_recording": growth * 1000 / Double(max(report.recordings.count, 1)),
        ]
        let violations = unfinished + failed + empty + report.backwards.count + report.unexpectedStops.count + report.pipelinesOutlived
            + report.stopsNotTaken.count + report.smallStills.count
        if violations > 0 {
            throw BenchFailure(message: "churn \(options.replay): \(violations) invariant violation(s): \(figures)")
        }
        return figures
    }
}
