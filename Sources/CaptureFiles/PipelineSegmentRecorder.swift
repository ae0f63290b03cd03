import CaptureKit
import Foundation
import Synchronization

/// Records one `movie` output in segments during a run: the recording starts once the session
/// runs and lasts for the run's length; each closed segment's file, and the seconds recorded,
/// go to the run's monitor, and a recording that failed fails the run. Segments are added to
/// the folder: a run never replaces one.
///
/// Threading: CaptureKit calls the delegate methods on the output's queue, in order; ``stop()``
/// waits for the last.
final class PipelineSegmentRecorder: SegmentedMovieFileOutputDelegate {
    private let index: Int
    private let spec: PipelineFile.MovieSpec
    private let output: SegmentedMovieFileOutput
    private let destination: URL
    private let monitor: PipelineRunMonitor
    private let seconds = Mutex(0.0)
    private let started = Atomic<Bool>(false)
    private let finished: AsyncStream<Void>
    private let finish: AsyncStream<Void>.Continuation

    /// A recorder for the file's output at `index`, writing a relative folder or pattern under `directory`.
    init(index: Int, spec: PipelineFile.MovieSpec, output: SegmentedMovieFileOutput, directory: URL, monitor: PipelineRunMonitor) {
        self.index = index
        self.spec = spec
        self.output = output
        self.monitor = monitor
        destination = PipelineRunFiles.resolve(spec.path, in: directory)
        (finished, finish) = AsyncStream<Void>.makeStream()
    }

    /// Makes the folder before the session starts, and refuses one that takes no files.
    func prepare() throws(PipelineRunError) {
        do {
            try output.checkDestination(destination)
        } catch {
            throw .capture(error, during: "movie output '\(spec.name)'")
        }
    }

    /// Starts the recording; the session is running.
    func start() {
        do {
            try output.startRecording(to: destination, delegate: self)
            started.store(true, ordering: .sequentiallyConsistent)
        } catch {
            monitor.fail(.capture(error, during: "movie output '\(spec.name)'"))
        }
    }

    /// Stops the recording and waits until its last segment is closed.
    func stop() async {
        guard started.load(ordering: .sequentiallyConsistent) else { return }
        output.stopRecording()
        for await _ in finished {}
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinish segment: MovieSegment, reason: MovieSegment.EndReason, error: CaptureError?) {
        let total = seconds.withLock { total in
            total += segment.duration
            return total
        }
        monitor.recorded(output: index, file: segment.url.path, seconds: total, dropped: 0)
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinishRecording error: CaptureError?) {
        if let error, !error.recordingSuccessfullyFinished, error.code != .sessionStopped {
            monitor.fail(.capture(error, during: "movie output '\(spec.name)'"))
        }
        finish.finish()
    }
}
