import CaptureKit
import Synchronization

/// The shared progress of one run: what each output has done, the first failure, and a stream
/// that wakes the run whenever either changes. Safe to use from any thread.
final class PipelineRunMonitor: Sendable {
    struct OutputProgress {
        var count = 0
        var dropped = 0
        var files: [String] = []
        var meanLuma: [Double] = []
        /// "TYPE VALUE" of each code a `metadata` output found, in the order first seen.
        var codes: [String] = []
        /// Audio frames (samples per channel) an `audioData` output handled.
        var audioFrames = 0
        /// The format of the audio an `audioData` output handled, once it had some.
        var audioFormat: AudioFormat?
        /// The seconds a `movie` output recorded, once its file is finished.
        var recordedSeconds: Double?
        var warnings: [String] = []
    }

    struct State {
        var outputs: [OutputProgress]
        var failure: PipelineRunError?
        var isFinished = false
    }

    /// Frames each `videoData` output handles in a `frames` run; nil in a `seconds` run.
    let frameTarget: Int?
    private let state: Mutex<State>
    private let changes: AsyncStream<Void>
    private let changed: AsyncStream<Void>.Continuation

    /// A monitor for `outputCount` outputs.
    init(outputCount: Int, frameTarget: Int?) {
        self.frameTarget = frameTarget
        state = Mutex(State(outputs: Array(repeating: OutputProgress(), count: outputCount)))
        (changes, changed) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// The 1-based index of the next frame output `index` should handle, or nil when the run is
    /// over or the output has reached the frame target.
    func nextFrame(ofOutput index: Int) -> Int? {
        state.withLock { state in
            let done = state.outputs[index].count
            guard !state.isFinished, state.failure == nil, done < frameTarget ?? .max else { return nil }
            return done + 1
        }
    }

    /// The 1-based number of the next item (sample buffer) output `index` should handle, or nil
    /// when the run is over or the output has handled `limit` items.
    func nextItem(ofOutput index: Int, limit: Int?) -> Int? {
        state.withLock { state in
            let done = state.outputs[index].count
            guard !state.isFinished, state.failure == nil, done < limit ?? .max else { return nil }
            return done + 1
        }
    }

    /// Records a sample buffer an `audioData` output handled: `frames` frames of `format`,
    /// written to `file` when it has one.
    func handledAudio(output index: Int, frames: Int, format: AudioFormat, file: String?) {
        state.withLock { state in
            state.outputs[index].count += 1
            state.outputs[index].audioFrames += frames
            state.outputs[index].audioFormat = format
            if let file, state.outputs[index].files.last != file { state.outputs[index].files.append(file) }
        }
        changed.yield()
    }

    /// Records a file an output wrote when the run ended (an `audioData` output's WAV file that
    /// no buffer started), and the format it holds.
    func wroteAtEnd(output index: Int, file: String, format: AudioFormat?) {
        state.withLock { state in
            if !state.outputs[index].files.contains(file) { state.outputs[index].files.append(file) }
            if state.outputs[index].audioFormat == nil { state.outputs[index].audioFormat = format }
        }
    }

    /// Sets the number of items output `index` dropped, as its output counted them.
    func setDropped(output index: Int, _ count: Int) {
        state.withLock { $0.outputs[index].dropped = count }
    }

    /// Records a handled frame or a taken still, with the file written and the luma measured.
    func completed(output index: Int, file: String? = nil, meanLuma: Double? = nil) {
        state.withLock { state in
            state.outputs[index].count += 1
            if let file, state.outputs[index].files.last != file { state.outputs[index].files.append(file) }
            if let meanLuma { state.outputs[index].meanLuma.append(meanLuma) }
        }
        changed.yield()
    }

    /// Records the finished file of a `movie` output: its path, the seconds recorded and the
    /// frames dropped.
    func recorded(output index: Int, file: String, seconds: Double, dropped: Int, warning: String? = nil) {
        state.withLock { state in
            if let warning { state.outputs[index].warnings.append(warning) }
            state.outputs[index].count += 1
            state.outputs[index].files.append(file)
            state.outputs[index].recordedSeconds = seconds
            state.outputs[index].dropped = dropped
        }
        changed.yield()
    }

    /// Records what a `stream` output sent over the run (frames sent and left out), or a
    /// `preview` showed.
    func streamed(output index: Int, frames: Int, dropped: Int) {
        state.withLock { state in
            state.outputs[index].count = frames
            state.outputs[index].dropped = dropped
        }
    }

    /// Records a code a `metadata` output found for the first time.
    func found(output index: Int, code: String, file: String?) {
        state.withLock { state in
            guard !state.isFinished else { return }
            state.outputs[index].count += 1
            state.outputs[index].codes.append(code)
            if let file, state.outputs[index].files.last != file { state.outputs[index].files.append(file) }
        }
        changed.yield()
    }

    /// Records a frame an output discarded while the run was busy.
    func dropped(output index: Int) {
        state.withLock { state in
            guard !state.isFinished, state.outputs[index].count < frameTarget ?? .max else { return }
            state.outputs[index].dropped += 1
        }
    }

    /// Records a failure; the first one wins and ends the wait.
    func fail(_ error: PipelineRunError) {
        state.withLock { state in
            if state.failure == nil { state.failure = error }
        }
        changed.yield()
    }

    /// The first failure, if any.
    var failure: PipelineRunError? { state.withLock { $0.failure } }

    /// Marks the run over: later frames are ignored.
    func finish() {
        state.withLock { $0.isFinished = true }
        changed.finish()
    }

    /// Each output's progress, in file order.
    var progress: [OutputProgress] { state.withLock { $0.outputs } }

    /// Waits until every output in `outputs` has handled the frame target and each output in
    /// `counts` its count of items (an `audioData` output's sample buffers), throwing the first
    /// failure as soon as it is recorded. In a `seconds` run no frame count ends the wait: it
    /// returns once the `counts` are reached, and without counts it only throws a failure, or
    /// returns when the run finishes. Returns early when the task is cancelled.
    ///
    /// One task at a time may wait: the changes stream has a single consumer.
    func waitForFrames(of outputs: [Int], counts: [(output: Int, count: Int)] = []) async throws(PipelineRunError) {
        func check() throws(PipelineRunError) -> Bool {
            let (failure, frames, reached) = state.withLock { state in
                (state.failure, outputs.map { state.outputs[$0].count }, counts.allSatisfy { state.outputs[$0.output].count >= $0.count })
            }
            if let failure { throw failure }
            guard let frameTarget else { return !counts.isEmpty && reached }
            return reached && frames.allSatisfy { $0 >= frameTarget }
        }
        if try check() { return }
        for await _ in changes {
            if try check() { return }
        }
    }
}
