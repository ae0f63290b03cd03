import CaptureKitChurn
import Foundation
import Testing
@testable import CaptureKit

/// Short versions of `capture-bench memory`: stopped pipelines and removed branches must be
/// freed. A pipeline kept alive leaks its buffers, ~1 MB a cycle at 640x480 (100 MB here); the
/// bound (16 MB over 100 cycles after warm-up) catches that and stays clear of the allocator's
/// noise, which moves resident memory by a few MB either way over such a run. The bar
/// (< 2 MB over 1,000 cycles) is measured by `capture-bench memory` (BENCHMARKS.md).
@Suite("Memory", .ownDevices, .serialized)
struct MemoryTests {
    /// Kilobytes gained over `cycles` after `warmUp` cycles (the allocator's and GStreamer's
    /// caches fill over the first hundred or so, then resident memory stays flat).
    static func growth(warmUp: Int = 100, cycles: Int = 100, _ body: () async throws -> Void) async throws -> Int {
        for _ in 0..<warmUp { try await body() }
        let before = ResidentMemory.kilobytes
        for _ in 0..<cycles { try await body() }
        return ResidentMemory.kilobytes - before
    }

    @Test("starting a session with a still output, taking a frame and stopping frees each pipeline")
    func startStop() async throws {
        let grown = try await Self.growth(warmUp: 40, cycles: 60) {
            let frames = VideoDataOutput()
            let test = try TestSession(preset: .vga640x480, outputs: [StillImageOutput(), frames])
            var iterator = frames.sampleBuffers().makeAsyncIterator()
            try await test.session.checked.startRunning()
            _ = await iterator.next()
            await test.session.checked.stopRunning()
        }
        #expect(grown < 16384, "\(grown) KB over 60 cycles")
    }

    @Test("adding and removing a still output on a running session frees each branch")
    func addRemove() async throws {
        let test = try TestSession(preset: .vga640x480, outputs: [VideoDataOutput()])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let grown = try await Self.growth {
            let still = StillImageOutput()
            try test.session.checked.addOutput(still)
            try test.session.checked.removeOutput(still)
        }
        #expect(grown < 16384, "\(grown) KB over 100 cycles")
    }

    @Test("stills taken one after another do not accumulate")
    func stills() async throws {
        let still = StillImageOutput()
        let test = try TestSession(preset: .vga640x480, outputs: [still])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let connection = try #require(still.connection(with: .video))
        let grown = try await Self.growth(warmUp: 30, cycles: 60) { _ = try await still.captureStillImage(from: connection) }
        #expect(grown < 16384, "\(grown) KB over 60 stills")
    }

    @Test("recordings started and stopped on a running session give their memory back")
    func recordings() async throws {
        let movie = MovieFileOutput()
        let test = try TestSession(preset: .vga640x480, outputs: [VideoDataOutput(), movie])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var index = 0
        // Each recording adds and removes the shared encode, whose worker threads leave their
        // freed memory in glibc's arenas; the runtime gives it back after each removal. Without
        // that, growth over such 40 ranged from -3 to +25 MB (a new arena at a time); the steady
        // figure is capture-bench memory's recordings loop (BENCHMARKS.md).
        let grown = try await Self.growth(warmUp: 20, cycles: 40) {
            let events = RecordingEvents()
            let url = folder.appendingPathComponent("\(index).mp4")
            index += 1
            movie.startRecording(to: url, recordingDelegate: events)
            #expect(try await events.started(within: 5))
            try await Task.sleep(for: .milliseconds(100))
            movie.stopRecording()
            #expect(await events.finished(within: 5) != nil)
            try? FileManager.default.removeItem(at: url)
        }
        #expect(grown < 16384, "\(grown) KB over 40 recordings")
    }
}
