@_spi(Benchmark) import CaptureKit
import Foundation
import GStreamerSwift
import Synchronization

/// A seeded, reproducible, model-based churn of a running session through the public API:
/// random operations (every output kind added and removed, stills, recordings started and
/// stopped, cameras switched, a camera unplugged and plugged back, a slow delegate, a stop from
/// inside a callback), with what the invariants need recorded as it goes. The same seed draws
/// the same operations on every machine. `make test` runs a short churn and checks the report
/// (`RuntimeChurnTests`); `capture-bench churn` runs a long one and prints its figures.
public enum SessionChurn {
    public enum Operation: String, CaseIterable, Sendable {
        case addStill, removeStill, takeStill, addMetadata, removeMetadata, addFrames, removeFrames
        case startRecording, stopRecording, switchCamera, unplugAndReplug, stopInsideCallback, toggleSlowDelegate
    }

    /// What to run: the seed, how many operations, which ones, and where recordings go.
    public struct Options: Sendable {
        public var seed: UInt64
        public var operations: Int
        public var only: [Operation]
        public var folder: URL

        public init(seed: UInt64, operations: Int, only: [Operation] = Operation.allCases, folder: URL) {
            self.seed = seed
            self.operations = operations
            self.only = only
            self.folder = folder
        }

        /// How to run the same churn again.
        public var replay: String { "seed \(seed) (CAPTUREKIT_CHURN_SEED=\(seed) replays it)" }
    }

    /// A recording started during the run: its file, and the error its did-finish gave (nil
    /// for a clean finish), once it came.
    public struct Recording: Sendable {
        public let url: URL
        public let finished: CaptureError??
    }

    /// What the run saw.
    public struct Report: Sendable {
        /// The operations drawn, "step: operation".
        public var log: [String] = []
        /// Presentation times that went back on the output that stays, within one run.
        public var backwards: [String] = []
        /// Frames the output that stays received.
        public var frames = 0
        /// The longest gap between two frames of the output that stays within one run, beside
        /// the operations; seconds.
        public var longestGap = 0.0
        /// Steps after which the session had stopped by itself, with the steps before.
        public var unexpectedStops: [String] = []
        /// Steps whose delegate's stopRunning() did not stop the session.
        public var stopsNotTaken: [Int] = []
        /// Steps whose still was smaller than a JPEG of the scene can be.
        public var smallStills: [Int] = []
        public var recordings: [Recording] = []
        /// The longest step of the session's executor.
        public var longestExecutorStep: Duration = .zero
        /// Pipelines run, and those not freed 3 s after the session stopped.
        public var pipelines = 0
        public var pipelinesOutlived = 0
        /// Resident memory after the first 50 operations and at the end, and the run's length.
        public var residentAfterWarmUp = 0
        public var residentAtEnd = 0
        public var seconds = 0.0
    }

    /// The output that stays for the whole run: its presentation times must never go back
    /// within one run of the session. It can be slow, and can stop the session from inside.
    final class TimeWatcher: VideoDataOutputSampleBufferDelegate {
        struct Seen {
            var last: CaptureTime?
            var lastArrival: ContinuousClock.Instant?
            var frames = 0
            var longestGap = Duration.zero
            var backwards: [String] = []
        }

        let seen = Mutex(Seen())
        let slow = Atomic<Bool>(false)
        let stopInside = Atomic<Bool>(false)
        let session: Mutex<CaptureSession?> = Mutex(nil)

        func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
            let time = sampleBuffer.presentationTime, now = ContinuousClock.now
            seen.withLock { seen in
                if let last = seen.last, time <= last { seen.backwards.append("\(last.seconds) then \(time.seconds)") }
                if let arrival = seen.lastArrival { seen.longestGap = max(seen.longestGap, now - arrival) }
                seen.last = time
                seen.lastArrival = now
                seen.frames += 1
            }
            if slow.load(ordering: .relaxed) { usleep(4_000) }
            if stopInside.exchange(false, ordering: .relaxed) { session.withLock { $0 }?.stopRunning() }
        }

        /// A new run of the session starts a new timeline.
        func newRun() { seen.withLock { $0.last = nil; $0.lastArrival = nil } }
    }

    /// Collects one recording's did-finish.
    final class RecordingEnd: FileOutputRecordingDelegate {
        let error = Mutex<CaptureError??>(nil)
        func fileOutput(_ output: FileOutput, didStartRecordingTo fileURL: URL, from connections: [CaptureConnection]) {}
        func fileOutput(_ output: FileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [CaptureConnection], error: Error?) {
            let finished = error.map { $0 as? CaptureError ?? CaptureError(code: .recordingFailed, message: "\($0)") }
            self.error.withLock { $0 = .some(finished) }
        }
    }

    /// Runs the churn on the virtual cameras of `context`: a session at CIF with a video data
    /// output that stays (not dropping late frames) and a movie output, started, churned, stopped.
    public static func run(_ options: Options, context: CaptureContext) async throws -> Report {
        let clock = ContinuousClock(), began = clock.now
        let cameras = [try context.find("virtual"), try context.find("virtual-front")]
        var random = SplitMix(seed: options.seed)
        var report = Report()
        let watcher = TimeWatcher()
        let frames = VideoDataOutput()
        frames.alwaysDiscardsLateVideoFrames = false
        frames.setSampleBufferDelegate(watcher, queue: DispatchQueue(label: "churn.frames"))
        let movie = MovieFileOutput()
        let session = CaptureSession(context: context)
        try session.setSessionPreset(.cif352x288)
        var input = try CaptureDeviceInput(device: cameras[0])
        try session.checked.addInput(input)
        try session.checked.addOutput(frames)
        try session.checked.addOutput(movie)
        watcher.session.withLock { $0 = session }
        var stills: [StillImageOutput] = [], metadata: [MetadataOutput] = [], extraFrames: [VideoDataOutput] = []
        var recordings: [(url: URL, end: RecordingEnd)] = []
        var pipelines: [FinalizationWatch] = []

        func start() async throws {
            watcher.newRun()
            try await session.checked.startRunning()
            if let pipeline = session.watchPipelineFinalization() { pipelines.append(pipeline) }
        }
        try await start()
        for step in 0..<options.operations {
            if step == 50 { report.residentAfterWarmUp = ResidentMemory.bytes }
            let operation = options.only.randomElement(using: &random)!
            report.log.append("\(step): \(operation)")
            switch operation {
            case .addStill where stills.count < 2:
                let still = StillImageOutput()
                try session.checked.addOutput(still)
                stills.append(still)
            case .removeStill where !stills.isEmpty:
                try session.checked.removeOutput(stills.removeFirst())
            case .takeStill:
                guard let still = stills.first, let connection = still.connection(with: .video), session.isRunning, !session.isInterrupted else { break }
                let image = try await still.captureStillImage(from: connection)
                if image.dataLength <= 1000 { report.smallStills.append(step) }
            case .addMetadata where metadata.count < 2:
                let output = MetadataOutput()
                try session.checked.addOutput(output)
                output.metadataObjectTypes = [.qr]
                metadata.append(output)
            case .removeMetadata where !metadata.isEmpty:
                try session.checked.removeOutput(metadata.removeFirst())
            case .addFrames where extraFrames.count < 2:
                let output = VideoDataOutput()
                try output.setVideoSettings(.init(pixelFormat: .gray8, width: 160, height: 120))
                try session.checked.addOutput(output)
                extraFrames.append(output)
            case .removeFrames where !extraFrames.isEmpty:
                try session.checked.removeOutput(extraFrames.removeFirst())
            case .startRecording where !movie.isRecording && session.isRunning:
                let end = RecordingEnd(), url = options.folder.appendingPathComponent("\(recordings.count).mp4")
                movie.startRecording(to: url, recordingDelegate: end)
                recordings.append((url, end))
            case .stopRecording where movie.isRecording:
                movie.stopRecording()
            case .switchCamera:
                let next = try CaptureDeviceInput(device: input.device == cameras[0] ? cameras[1] : cameras[0])
                session.beginConfiguration()
                try session.checked.removeInput(input)
                try session.checked.addInput(next)
                try session.checked.commitConfiguration()
                input = next
            case .unplugAndReplug where session.isRunning:
                try input.device.injectFault(.unplugged)
                try await Task.sleep(for: .milliseconds(60))
                try input.device.injectFault(nil)
            case .stopInsideCallback where session.isRunning && !session.isInterrupted:
                watcher.stopInside.store(true, ordering: .relaxed)
                let deadline = clock.now + .seconds(3)
                while session.isRunning, clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
                if session.isRunning { report.stopsNotTaken.append(step) }
                try await start()
            case .toggleSlowDelegate:
                watcher.slow.store(!watcher.slow.load(ordering: .relaxed), ordering: .relaxed)
            default:
                break
            }
            if !session.isRunning, !watcher.stopInside.load(ordering: .relaxed) {
                report.unexpectedStops.append("step \(step); last steps: \(report.log.suffix(8))")
                try await start()
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 5...25, using: &random)))
        }
        if movie.isRecording { movie.stopRecording() }
        await session.checked.stopRunning()
        watcher.seen.withLock { seen in
            report.frames = seen.frames
            report.backwards = seen.backwards
            report.longestGap = Double(seen.longestGap.components.attoseconds) / 1e18 + Double(seen.longestGap.components.seconds)
        }
        // Each recording's did-finish, waited for up to 10 s in all.
        let deadline = clock.now + .seconds(10)
        while recordings.contains(where: { $0.end.error.withLock { $0 } == nil }), clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        report.recordings = recordings.map { Recording(url: $0.url, finished: $0.end.error.withLock { $0 }) }
        report.longestExecutorStep = session.longestExecutorStep
        // Once stopped and let go of, each pipeline (every element and pad in it) is freed.
        for camera in cameras { try camera.injectFault(nil) }
        stills = []; metadata = []; extraFrames = []
        let freed = clock.now + .seconds(3)
        while pipelines.contains(where: { !$0.isFinalized }), clock.now < freed { try await Task.sleep(for: .milliseconds(20)) }
        report.pipelines = pipelines.count
        report.pipelinesOutlived = pipelines.filter { !$0.isFinalized }.count
        report.residentAtEnd = ResidentMemory.bytes
        let took = (clock.now - began).components
        report.seconds = Double(took.seconds) + Double(took.attoseconds) / 1e18
        return report
    }
}
