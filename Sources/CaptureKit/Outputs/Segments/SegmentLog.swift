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
        var retention: SegmentRetention
        /// Lines in the journal since `index.json` was last written.
        var journalLines = 0
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
    init(folder: URL, retention: SegmentRetention, delegate: any SegmentedMovieFileOutputDelegate, queue: DispatchQueue,
         output: @escaping @Sendable () -> SegmentedMovieFileOutput?, onFailure: @escaping @Sendable (CaptureError) -> Void) {
        self.folder = folder
        let index = SegmentIndex.load(folder: folder)
        number = index.nextRecording
        state = Mutex(State(index: index, retention: retention))
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
            let (snapshot, lines, deleted) = state.withLock { state -> (SegmentIndex?, [SegmentJournal.Line], [(URL, String)]) in
                var lines: [SegmentJournal.Line] = []
                switch event {
                case .started(let segment), .finished(let segment, _, _):
                    let file = state.index.record(segment, recording: number, folder: folder, open: isStarted(event))
                    if isStarted(event) {
                        state.segments += 1
                        state.current = segment
                    } else {
                        state.current = nil
                    }
                    lines += state.index.line(forSegment: file).map { [$0] } ?? []
                case .eventStarted(let event), .eventFinished(let event):
                    lines.append(.event(state.index.record(event, recording: number, folder: folder)))
                case .failed:
                    break
                }
                let expired = state.retention.expired(in: state.index, now: Date())
                let deleted = expired.compactMap { remove($0, from: &state, reason: "retention") }
                lines += deleted.map { .removed(relative($0.0)) }
                return (compacts(&state, adding: lines.count) ? state.index : nil, lines, deleted)
            }
            persist(snapshot, lines)
            let delegate = self.delegate
            tellDeleted(deleted)
            switch event {
            case .started(let segment):
                guard let output = output() else { return }
                delegateQueue.async { delegate.value.segmentedOutput(output, didStart: segment) }
            case .finished(let segment, let reason, let error):
                guard let output = output() else { return }
                delegateQueue.async { delegate.value.segmentedOutput(output, didFinish: segment, reason: reason, error: error) }
            case .eventStarted(let event):
                guard let output = output() else { return }
                delegateQueue.async { delegate.value.segmentedOutput(output, didStartEvent: event) }
            case .eventFinished(let event):
                guard let output = output() else { return }
                delegateQueue.async { delegate.value.segmentedOutput(output, didFinishEvent: event) }
            case .failed(let error):
                let onFailure = self.onFailure
                DispatchQueue.global().async { onFailure(error) }
            }
        }
    }

    /// On a streaming thread, when the disk is full: deletes the oldest closed segment of the
    /// folder (never the one being written, nor one holding an event) and says so; false when
    /// there is none left. The index is saved afterwards, on the log's queue.
    func reclaimOldest() -> Bool {
        let deleted = state.withLock { state -> (URL, String)? in
            let oldest = state.index.closedOldestFirst.first { !state.index.holdsEvent($0) }
            return oldest.flatMap { remove($0, from: &state, reason: "the disk was full") }
        }
        guard let deleted else { return false }
        queue.async { [self] in
            let snapshot = state.withLock { compacts(&$0, adding: 1) ? $0.index : nil }
            persist(snapshot, [.removed(relative(deleted.0))])
            tellDeleted([deleted])
        }
        return true
    }

    /// Whether the index is rewritten now (small, or its journal long enough), else the change's
    /// `lines` go to the journal. Under the state's lock.
    private func compacts(_ state: inout State, adding lines: Int) -> Bool {
        state.journalLines += lines
        guard state.index.segments.count < SegmentJournal.compactionFloor || state.journalLines * 8 >= state.index.segments.count else { return false }
        state.journalLines = 0
        return true
    }

    /// On the log's queue: writes `snapshot` as `index.json`, or appends `lines` to the journal.
    private func persist(_ snapshot: SegmentIndex?, _ lines: [SegmentJournal.Line]) {
        do {
            if let snapshot { try snapshot.save(folder: folder) } else { try SegmentJournal.append(lines, folder: folder) }
        } catch {
            CaptureLog.logger.warning("\(folder.path)/\(SegmentIndex.fileName): not saved: \(error.localizedDescription)")
        }
    }

    private func isStarted(_ event: SegmentWriter.Event) -> Bool {
        if case .started = event { true } else { false }
    }

    /// `url`'s path relative to the folder, as the index lists it.
    private func relative(_ url: URL) -> String { SegmentIndex.relativePath(url, in: folder) }

    /// Deletes `entry`'s file and takes it out of the index: its URL and `reason`, or nil when
    /// the file could not be deleted (it stays listed).
    private func remove(_ entry: SegmentIndex.Entry, from state: inout State, reason: String) -> (URL, String)? {
        let url = folder.appendingPathComponent(entry.file)
        guard unlink(url.path) == 0 || errno == ENOENT else {
            CaptureLog.logger.warning("\(url.path): not deleted (\(reason)): \(String(cString: strerror(errno)))")
            return nil
        }
        state.index.segments.removeAll { $0.file == entry.file }
        return (url, reason)
    }

    private func tellDeleted(_ deleted: [(URL, String)]) {
        guard !deleted.isEmpty, let output = output() else { return }
        let delegate = self.delegate
        for (url, reason) in deleted {
            CaptureLog.logger.info("\(url.path): deleted (\(reason))")
            delegateQueue.async { delegate.value.segmentedOutput(output, didDelete: url, reason: reason) }
        }
    }

    /// The recording ended: did-finish-recording, after every event queued before.
    /// The journal is folded into `index.json` first.
    func recordingFinished(output: SegmentedMovieFileOutput, error: CaptureError?) {
        let delegate = self.delegate, delegateQueue = self.delegateQueue
        queue.async { [self] in
            let snapshot = state.withLock { state -> SegmentIndex? in
                defer { state.journalLines = 0 }
                return state.journalLines > 0 ? state.index : nil
            }
            persist(snapshot, [])
            delegateQueue.async { delegate.value.segmentedOutput(output, didFinishRecording: error) }
        }
    }
}
