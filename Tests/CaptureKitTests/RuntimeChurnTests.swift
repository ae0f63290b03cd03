import CaptureKitChurn
import Foundation
import Testing
@testable import CaptureKit

/// A seeded, reproducible, model-based churn of a running session (`SessionChurn`): random
/// operations (every output kind added and removed, stills, recordings started and stopped,
/// cameras switched, a camera unplugged and plugged back, a slow delegate, a stop from inside a
/// callback), with invariants checked on what it saw. A failure names its seed: replay it with
/// `CAPTUREKIT_CHURN_SEED=N` (and `CAPTUREKIT_CHURN_OPERATIONS` for a longer run,
/// `CAPTUREKIT_CHURN_ONLY` for some operations only). `capture-bench churn` runs 10,000.
@Suite("Runtime churn", .ownDevices, .serialized)
struct RuntimeChurnTests {
    @Test("seeded churn on a running session: times never go back, every recording finishes playable, no step holds the executor a second, every pipeline is freed once stopped")
    func churn() async throws {
        let environment = ProcessInfo.processInfo.environment
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // CAPTUREKIT_CHURN_ONLY=addStill,removeStill narrows the operations drawn (to bisect a failure).
        let only = environment["CAPTUREKIT_CHURN_ONLY"].map { $0.split(separator: ",").compactMap { SessionChurn.Operation(rawValue: String($0)) } }
        let options = SessionChurn.Options(seed: environment["CAPTUREKIT_CHURN_SEED"].flatMap(UInt64.init) ?? 26,
                                           operations: environment["CAPTUREKIT_CHURN_OPERATIONS"].flatMap(Int.init) ?? 300,
                                           only: only ?? SessionChurn.Operation.allCases, folder: folder)
        let replay = options.replay
        let report = try await SessionChurn.run(options, context: TestContext.current)

        #expect(report.unexpectedStops.isEmpty, "\(replay): the session stopped by itself: \(report.unexpectedStops)")
        #expect(report.stopsNotTaken.isEmpty, "\(replay): a delegate's stopRunning() did not stop the session, steps \(report.stopsNotTaken)")
        #expect(report.smallStills.isEmpty, "\(replay): stills of 1000 bytes or less, steps \(report.smallStills)")
        #expect(report.backwards.isEmpty, "\(replay): presentation times went back: \(report.backwards.prefix(5))")
        #expect(report.frames > options.operations / 4, "\(replay): \(report.frames) frames over \(options.operations) operations")
        for (index, recording) in report.recordings.enumerated() {
            guard let finished = recording.finished else {
                Issue.record("\(replay): recording \(index) never finished")
                continue
            }
            if let error = finished, !error.recordingSuccessfullyFinished {
                #expect(error.code == .noDataCaptured, "\(replay): recording \(index) failed: \(error)")
                continue
            }
            let probe = try MovieProbe(recording.url.path)
            #expect((probe.video?.frames ?? 0) > 0, "\(replay): recording \(index) has no frames")
        }
        #expect(report.longestExecutorStep < .seconds(1), "\(replay): a step held the session's executor \(report.longestExecutorStep)")
        #expect(report.pipelinesOutlived == 0, "\(replay): \(report.pipelinesOutlived) of \(report.pipelines) pipelines outlived their run")
    }
}
