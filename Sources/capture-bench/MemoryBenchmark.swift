import CaptureKit
import CaptureKitChurn
import Foundation
import Synchronization

/// Resident memory growth per cycle after warm-up, for the three loops the live-runtime issue
/// holds to < 2 MB over 1,000: start/stop of a 640x480 virtual session with a still output,
/// adding and removing a still output on a running session, recordings started and stopped on
/// it, and stills taken. Cycles per loop:
/// CAPTURE_BENCH_MEMORY_CYCLES (default 200); CAPTURE_BENCH_MEMORY_ONLY_START_STOP runs the first
/// loop alone (for valgrind). The add/remove loop also reports whether the session's
/// VideoDataOutput kept receiving frames through it (frames per second over the loop, and how
/// long before its end the last frame arrived).
enum MemoryBenchmark {
    static func run() async throws -> [String: Double] {
        let environment = ProcessInfo.processInfo.environment
        let cycles = Int(environment["CAPTURE_BENCH_MEMORY_CYCLES"] ?? "") ?? 200
        var figures: [String: Double] = ["cycles": Double(cycles)]
        figures["startStopKBPerCycle"] = try await growth(cycles: cycles) {
            let session = try makeSession(outputs: [StillImageOutput()])
            try await session.checked.startRunning()
            await session.checked.stopRunning()
        }
        if environment["CAPTURE_BENCH_MEMORY_ONLY_START_STOP"] != nil { return figures }
        let frames = VideoDataOutput(), counter = FrameCounter()
        frames.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "bench.memory.frames"))
        let running = try makeSession(outputs: [frames])
        try await running.checked.startRunning()
        let loopStart = DispatchTime.now().uptimeNanoseconds
        figures["addRemoveKBPerCycle"] = try await growth(cycles: cycles) {
            let still = StillImageOutput()
            try running.checked.addOutput(still)
            try running.checked.removeOutput(still)
        }
        // Whether the session's frames kept flowing through the loop: frames delivered per
        // second of it, and how long before its end the last one arrived.
        let loopEnd = DispatchTime.now().uptimeNanoseconds
        let count = counter.state.withLock { $0.count }
        try await Task.sleep(for: .milliseconds(100))
        let last = counter.state.withLock { $0.last }
        figures["addRemoveFramesPerSecond"] = Double(count) / (Double(loopEnd - loopStart) / 1e9)
        figures["addRemoveLastFrameBeforeEndMs"] = last > loopEnd ? 0 : Double(loopEnd - max(last, loopStart)) / 1e6
        // Recordings on the running session: each adds and removes the shared encode's stage.
        let movie = MovieFileOutput(), folder = try RecordBenchmark.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try running.checked.addOutput(movie)
        var recording = 0
        figures["recordingKBPerCycle"] = try await growth(cycles: cycles) {
            let events = RecordBenchmark.Events(), url = folder.appendingPathComponent("\(recording).mp4")
            recording += 1
            movie.startRecording(to: url, recordingDelegate: events)
            events.started.wait()
            try await Task.sleep(for: .milliseconds(100))
            movie.stopRecording()
            events.finished.wait()
            try? FileManager.default.removeItem(at: url)
        }
        await running.checked.stopRunning()
        let still = StillImageOutput()
        let stills = try makeSession(outputs: [still])
        try await stills.checked.startRunning()
        let connection = still.connection(with: .video)!
        figures["stillKBPerCycle"] = try await growth(cycles: cycles) {
            _ = try await still.captureStillImage(from: connection)
        }
        await stills.checked.stopRunning()
        return figures
    }

    /// Counts a VideoDataOutput's frames and notes when the newest arrived.
    final class FrameCounter: VideoDataOutputSampleBufferDelegate {
        let state = Mutex<(count: Int, last: UInt64)>((0, 0))

        func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
            let now = DispatchTime.now().uptimeNanoseconds
            state.withLock { $0 = ($0.count + 1, now) }
        }
    }

    static func makeSession(outputs: [any CaptureOutput]) throws -> CaptureSession {
        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        try session.checked.addInput(CaptureDeviceInput(device: try CaptureDevice.find("virtual")))
        for output in outputs { try session.checked.addOutput(output) }
        return session
    }

    /// Kilobytes of resident memory gained per cycle over `cycles` cycles after `cycles / 5`
    /// warm-up ones.
    static func growth(cycles: Int, _ body: () async throws -> Void) async throws -> Double {
        for _ in 0..<max(1, cycles / 5) { try await body() }
        let before = ResidentMemory.kilobytes
        let verbose = ProcessInfo.processInfo.environment["CAPTURE_BENCH_VERBOSE"] != nil
        for cycle in 0..<cycles {
            try await body()
            if verbose && (cycle + 1) % 100 == 0 { print("cycle \(cycle + 1): +\(ResidentMemory.kilobytes - before) KB") }
        }
        return Double(ResidentMemory.kilobytes - before) / Double(cycles)
    }
}
