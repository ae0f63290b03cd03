import Foundation
import GStreamerSwift
import Synchronization
import Testing
@testable import CaptureKit

/// A seeded, reproducible, model-based churn of a running session: random operations (every
/// output kind added and removed, stills, recordings started and stopped, cameras switched,
/// a camera unplugged and plugged back, a slow delegate, a stop from inside a callback), with
/// invariants checked throughout and at the end. A failure names its seed: replay it with
/// `CAPTUREKIT_CHURN_SEED=N` (and `CAPTUREKIT_CHURN_OPERATIONS` for a longer run,
/// `CAPTUREKIT_CHURN_ONLY` for some operations only).
@Suite("Runtime churn", .ownDevices, .serialized)
struct RuntimeChurnTests {
    /// The output that stays for the whole run: its presentation times must never go back
    /// within one run of the session. It can be slow, and can stop the session from inside.
    final class TimeWatcher: VideoDataOutputSampleBufferDelegate {
        struct Seen {
            var last: CaptureTime?
            var frames = 0
            var backwards: [String] = []
        }

        let seen = Mutex(Seen())
        let slow = Atomic<Bool>(false)
        let stopInside = Atomic<Bool>(false)
        let session: Mutex<CaptureSession?> = Mutex(nil)

        func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
            let time = sampleBuffer.presentationTime
            seen.withLock { seen in
                if let last = seen.last, time <= last { seen.backwards.append("\(last.seconds) then \(time.seconds)") }
                seen.last = time
                seen.frames += 1
            }
            if slow.load(ordering: .relaxed) { usleep(4_000) }
            if stopInside.exchange(false, ordering: .relaxed) { session.withLock { $0 }?.stopRunning() }
        }

        /// A new run of the session starts a new timeline.
        func newRun() { seen.withLock { $0.last = nil } }
    }

    enum Operation: CaseIterable {
        case addStill, removeStill, takeStill, addMetadata, removeMetadata, addFrames, removeFrames
        case startRecording, stopRecording, switchCamera, unplugAndReplug, stopInsideCallback, toggleSlowDelegate
    }

    @Test("seeded churn on a running session: times never go back, every recording finishes playable, no step holds the executor a second, every pipeline is freed once stopped")
    func churn() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["CAPTUREKIT_CHURN_SEED"].flatMap(UInt64.init) ?? 26
        let count = environment["CAPTUREKIT_CHURN_OPERATIONS"].flatMap(Int.init) ?? 300
        // CAPTUREKIT_CHURN_ONLY=addStill,removeStill narrows the operations drawn (to bisect a failure).
        let operations = environment["CAPTUREKIT_CHURN_ONLY"].map { only in
            Operation.allCases.filter { only.split(separator: ",").contains(Substring("\($0)")) }
        } ?? Operation.allCases
        var random = SplitMix(seed: seed)  // the same operations for the same seed on every machine
        let replay = "seed \(seed) (CAPTUREKIT_CHURN_SEED=\(seed) replays it)"
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cameras = [CaptureDevice.find(virtual: .back), CaptureDevice.find(virtual: .front)]
        for camera in cameras { camera.restoreDefaultControls() }

        let watcher = TimeWatcher()
        let frames = VideoDataOutput()
        frames.alwaysDiscardsLateVideoFrames = false
        frames.setSampleBufferDelegate(watcher, queue: DispatchQueue(label: "churn.frames"))
        let movie = MovieFileOutput()
        let test = try TestSession(preset: .cif352x288, outputs: [frames, movie])
        let session = test.session
        watcher.session.withLock { $0 = session }
        var input = test.input
        var stills: [StillImageOutput] = [], metadata: [MetadataOutput] = [], extraFrames: [VideoDataOutput] = []
        var recordings: [(url: URL, events: RecordingEvents)] = []
        var pipelines: [FinalizationWatch] = []
        var log: [String] = []

        func start() async throws {
            watcher.newRun()
            try await session.checked.startRunning()
            if let pipeline = session.runtime?.pipeline { pipelines.append(pipeline.watchFinalization()) }
        }
        try await start()
        for step in 0..<count {
            let operation = operations.randomElement(using: &random)!
            log.append("\(step): \(operation)")
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
                #expect(image.dataLength > 1000, "\(replay), step \(step)")
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
                let events = RecordingEvents(), url = folder.appendingPathComponent("\(recordings.count).mp4")
                movie.startRecording(to: url, recordingDelegate: events)
                recordings.append((url, events))
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
                let deadline = ContinuousClock.now + .seconds(3)
                while session.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
                #expect(!session.isRunning, "\(replay): a delegate's stopRunning() did not stop the session, step \(step)")
                try await start()
            case .toggleSlowDelegate:
                watcher.slow.store(!watcher.slow.load(ordering: .relaxed), ordering: .relaxed)
            default:
                break
            }
            if !session.isRunning, !watcher.stopInside.load(ordering: .relaxed) {
                Issue.record("\(replay): the session stopped at step \(step); last steps: \(log.suffix(8))")
                try await start()
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 5...25, using: &random)))
        }
        if movie.isRecording { movie.stopRecording() }
        let frameCount = watcher.seen.withLock { $0.frames }
        await session.checked.stopRunning()

        #expect(watcher.seen.withLock { $0.backwards }.isEmpty, "\(replay): presentation times went back: \(watcher.seen.withLock { $0.backwards.prefix(5) })")
        #expect(frameCount > count / 4, "\(replay): \(frameCount) frames over \(count) operations")
        for (index, recording) in recordings.enumerated() {
            guard let finished = await recording.events.finished(within: 10) else {
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
        let longest = Double(session.executor.longestStep) / 1e9
        #expect(longest < 1, "\(replay): a step held the session's executor \(longest) s")
        // Once stopped and let go of, each pipeline (every element and pad in it) is freed.
        for camera in cameras { try camera.injectFault(nil) }
        stills = []; metadata = []; extraFrames = []
        let deadline = ContinuousClock.now + .seconds(3)
        while pipelines.contains(where: { !$0.isFinalized }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if environment["CAPTUREKIT_CHURN_SOCKETS"] != nil {
            let sockets = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).filter {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)"))?.hasPrefix("socket:") == true
            }
            print("churn: \(sockets.count) sockets open after the run")
        }
        let outlived = pipelines.filter { !$0.isFinalized }.count
        #expect(outlived == 0, "\(replay): \(outlived) of \(pipelines.count) pipelines outlived their run")
    }
}
