import Testing
@testable import CaptureKit

/// A running session's frames, read one at a time, with a count of how many were read: for
/// tests that wait for an auto mode to settle and report how many frames it took.
struct LiveFrames {
    let test: TestSession
    private var iterator: AsyncStream<SampleBuffer>.Iterator
    private(set) var latest: SampleBuffer?

    /// Starts a session of `device` at `preset` with a frame output.
    init(device: CaptureDevice, preset: SessionPreset = .cif352x288) async throws {
        let frames = VideoDataOutput()
        test = try TestSession(preset: preset, device: device, outputs: [frames])
        iterator = frames.sampleBuffers(bufferingNewest: 512).makeAsyncIterator()
        try await test.session.checked.startRunning()
    }

    /// The next frame.
    @discardableResult
    mutating func next() async throws -> SampleBuffer {
        let sample = try #require(await iterator.next())
        latest = sample
        return sample
    }

    /// Reads frames until `settled` holds (checked after each, at least `minimum` frames), and
    /// returns how many it read; fails after `limit`.
    @discardableResult
    mutating func frames(until settled: () -> Bool, minimum: Int = 2, limit: Int = 150,
                         _ what: @autoclosure () -> String = "") async throws -> Int {
        var count = 0
        repeat {
            try await next()
            count += 1
            try #require(count < limit, "did not settle in \(limit) frames: \(what())")
        } while count < minimum || !settled()
        return count
    }

    /// Reads frames until one satisfies `matches`; returns how many it read.
    @discardableResult
    mutating func frames(untilSample matches: (SampleBuffer) throws -> Bool, limit: Int = 60) async throws -> Int {
        var count = 0
        repeat {
            count += 1
            try #require(count < limit, "no matching frame in \(limit) frames")
        } while try !matches(try await next())
        return count
    }

    /// The rate frames are delivered at, from the presentation times of the next `count`
    /// frames (their mean step).
    mutating func measuredRate(over count: Int = 12) async throws -> Double {
        let first = try await next()
        var last = first
        for _ in 1..<count { last = try await next() }
        return Double(count - 1) / (last.presentationTime.seconds - first.presentationTime.seconds)
    }

    func stop() { test.session.stopRunning() }
}
