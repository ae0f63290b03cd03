import Dispatch
import Foundation
import Synchronization

/// A segmented recording's account of its segments: the folder's index, saved as each segment
/// opens and closes, and the delegate, told after the index is saved.
///
/// Threading: `handle` is called by the writer on a streaming thread and only queues the event;
/// events are handled in order on the log's own serial queue (which writes the index), and the
/// delegate is called from there on its queue.
final class SegmentLog: Sendable {
    struct State {
        var index: SegmentIndex
        var segments = 0
        var current: MovieSegment?
    }

    let folder: URL
    /// The recording's number in the folder's index.
    let number: Int
    let state: Mutex<State>
    private let queue = DispatchQueue(label: "CaptureKit.SegmentLog")
    private let delegate: UncheckedDelegate<any SegmentedMovieFileOutputDelegate>
    private let delegateQueue: DispatchQueue
    private let output: @Sendable () -> SegmentedMovieFileOutput?
    private let onFailure: @Sendable (CaptureError) -> Void

    /// Reads (or rebuilds) `folder`'s index; `onFailure` runs on a global queue when writing fails.
    init(folder: URL, delegate: any SegmentedMovieFileOutputDelegate, queue: DispatchQueue,
         output: @escaping @Sendable () -> SegmentedMovieFileOutput?, onFailure: @escaping @Sendable (CaptureError) -> Void) {
        self.folder = folder
        let index = SegmentIndex.load(folder: folder)
        number = index.nextRecording
        state = Mutex(State(index: index))
        self.delegate = UncheckedDelegate(value: delegate)
        delegateQueue = queue
        self.output = output
        self.onFailure = onFailure
    }

    /// The start of the last segment in the folder before this recording.
    var lastStart: Date? { state.withLock { $0.index.lastStart } }

    /// A writer's event: queued, never handled on the calling thread.
    func handle(_ event: SegmentWriter.Event) {
        queue.async { [self] in
            let snapshot = state.withLock { state -> SegmentIndex in
                switch event {
                case .started(let segment):
                    state.index.record(segment, recording: number, folder: folder, open: true)
                    state.segments += 1
                    state.current = segment
                case .finished(let segment, _, _):
                    state.index.record(segment, recording: number, folder: folder, open: false)
                    state.current = nil
                case .failed:
                    break
                }
                return state.index
            }
            do {
                try snapshot.save(folder: folder)
            } catch {
                CaptureLog.logger.warning("\(folder.path)/\(SegmentIndex.fileName): not saved: \(error.localizedDescription)")
            }
            let delegate = self.delegate
            switch event {
            case .started(let segment):
                guard let output = output() else { return }
                delegateQueue.async { delegate.value.segmentedOutput(output, didStart: segment) }
            case .finished(let segment, let reason, let error):
                guard let output = output() else { return }
                delegateQueue.async { delegate.value.segmentedOutput(output, didFinish: segment, reason: reason, error: error) }
            case .failed(let error):
                let onFailure = self.onFailure
                DispatchQueue.global().async { onFailure(error) }
            }
        }
    }

    /// The recording ended: did-finish-recording, after every event queued before.
    func recordingFinished(output: SegmentedMovieFileOutput, error: CaptureError?) {
        let delegate = self.delegate, delegateQueue = self.delegateQueue
        queue.async { delegateQueue.async { delegate.value.segmentedOutput(output, didFinishRecording: error) } }
    }
}
