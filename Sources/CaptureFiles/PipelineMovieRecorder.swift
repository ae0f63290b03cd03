import CaptureKit
import Foundation
import Synchronization

/// Records one `movie` output during a run: the recording starts once the session runs and
/// lasts for the run's length, unless its `maxDuration` or `maxSize` ends it first; its file,
/// length and dropped frames go to the run's monitor, and a recording that failed fails the run.
///
/// Threading: CaptureKit calls the delegate method on the output's queue; ``stop()`` waits for it.
final class PipelineMovieRecorder: FileOutputRecordingDelegate {
    private let index: Int
    private let spec: PipelineFile.MovieSpec
    private let output: MovieFileOutput
    private let file: URL
    private let monitor: PipelineRunMonitor
    private let started = Atomic<Bool>(false)
    private let finished: AsyncStream<Void>
    private let finish: AsyncStream<Void>.Continuation

    /// A recorder for the file's output at `index`, writing a relative path under `directory`.
    init(index: Int, spec: PipelineFile.MovieSpec, output: MovieFileOutput, directory: URL, monitor: PipelineRunMonitor) {
        self.index = index
        self.spec = spec
        self.output = output
        self.monitor = monitor
        file = PipelineRunFiles.resolve(spec.path, in: directory)
        (finished, finish) = AsyncStream<Void>.makeStream()
    }

    /// Makes room for the file before the session starts: creates its directory and removes an
    /// earlier run's file, as stills and WAV files are replaced.
    func prepare() throws(PipelineRunError) {
        try PipelineRunFiles.createDirectory(file.deletingLastPathComponent())
        try PipelineRunFiles.remove(file)
    }

    /// Starts the recording; the session is running.
    func start() {
        started.store(true, ordering: .sequentiallyConsistent)
        output.startRecording(to: file, recordingDelegate: self)
    }

    /// Stops the recording if a limit has not, and waits until its file is closed.
    func stop() async {
        guard started.load(ordering: .sequentiallyConsistent) else { return }
        output.stopRecording()
        for await _ in finished {}
    }

    func fileOutput(_ output: FileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [CaptureConnection],
                    error: Error?) {
        let error = error as? CaptureError  // a movie output's recordings end with CaptureErrors only
        if let error, !error.recordingSuccessfullyFinished {
            monitor.fail(.capture(error, during: "movie output '\(spec.name)'"))
        } else {
            // Complete and playable, but left in fragments (its index could not be written).
            let warning = error?.code == .movieNotFinalized ? "movie output '\(spec.name)': \(error?.message ?? "")" : nil
            monitor.recorded(output: index, file: file.path, seconds: output.recordedDuration.seconds, dropped: self.output.droppedFrameCount,
                             warning: warning)
        }
        finish.finish()
    }
}
