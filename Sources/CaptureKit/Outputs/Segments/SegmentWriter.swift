import Dispatch
import Foundation
import GStreamerSwift
import Synchronization

/// Cuts one fragmented MP4/MOV stream, as the muxer writes it, into segment files.
///
/// The muxer writes its header (`ftyp`, `moov`) once, then fragments (`moof` + `mdat`), a new
/// video fragment at every key frame. Each segment file is the header (its creation time set to
/// the segment's start) followed by whole fragments: a new file begins at the first video
/// fragment starting with a key frame at or past the next boundary. So every sample is in
/// exactly one file, decode times go on from file to file (each fragment keeps its own), and a
/// closed file is final; the open one is playable up to its last whole fragment.
///
/// Threading: `write` runs on the muxer's streaming thread (through the sink's probe) and
/// `finish` on the session's; both take a short lock around file calls (`open`, `write`,
/// `close`) and never wait for anything else. Each fragment is flushed to disk (`fsync`) on a
/// queue of its own, on a duplicate of the file's descriptor. `events` is called after the lock,
/// on the calling thread, and must not block.
final class SegmentWriter: Sendable {
    enum Event: Sendable {
        case started(MovieSegment)
        case finished(MovieSegment, MovieSegment.EndReason, CaptureError?)
        /// Writing failed: the recording ends (after the open segment's `finished`).
        case failed(CaptureError)
        /// An event's first trigger (its clip opened, when clips are written), and its end.
        case eventStarted(RecordingEvent)
        case eventFinished(RecordingEvent)
    }

    struct Open {
        var descriptor: Int32
        var segment: MovieSegment
        /// The video's length in it so far, in the video's time scale.
        var videoTicks: UInt64 = 0
    }

    struct State {
        var header: [UInt8] = []
        var tracks: [FragmentedMovie.Track] = []
        var open: Open?
        /// Seconds on the capture clock where the next segment may begin.
        var nextBoundary: Double
        var failed = false
        var finished = false
        var lastDate: Date?
        /// The wall-clock time of the recording's first frame, and its uptime (nanoseconds).
        var recordingStart: Date?
        var startUptime: UInt64?
        /// Whether segment files are written (else only clips, or nothing but events).
        var writesSegments: Bool
        var clips: EventClips?
        /// The last video fragment's start and end on the capture clock.
        var videoTime = 0.0, videoEnd = 0.0
    }

    private let segmentDuration: Double
    /// Written into the header's video track (the recording's orientation and mirroring).
    private let matrix: DisplayMatrix?
    let naming: SegmentNaming
    let events: @Sendable (Event) -> Void
    /// Deletes the folder's oldest closed segment when the disk is full; false when none is left.
    private let reclaim: @Sendable () -> Bool
    let state: Mutex<State>
    private let syncQueue = DispatchQueue(label: "CaptureKit.SegmentWriter.sync")

    /// `after` is the start of the last segment already in the folder: names sort after it.
    /// `reclaim` runs (under the writer's lock, on the writing thread) when the disk is full.
    /// `clips` holds the event settings when events are recorded; `writesSegments` false writes
    /// no segment files (clips only).
    init(segmentDuration: Double, naming: SegmentNaming, after: Date?, writesSegments: Bool = true, clips: EventClips? = nil,
         matrix: DisplayMatrix? = nil, events: @escaping @Sendable (Event) -> Void, reclaim: @escaping @Sendable () -> Bool) {
        self.segmentDuration = segmentDuration
        self.matrix = matrix
        self.naming = naming
        self.events = events
        self.reclaim = reclaim
        state = Mutex(State(nextBoundary: segmentDuration, lastDate: after, writesSegments: writesSegments, clips: clips))
    }

    /// Whether the writer keeps a pre-roll (the sink's probe then hands it each buffer kept).
    var keepsBuffers: Bool { state.withLock { $0.clips != nil } }

    /// The wall-clock time of the recording's first frame, as it enters the branch (before the
    /// muxer writes anything): segments are named from it and their capture-clock start.
    func setRecordingStart(_ date: Date) {
        let uptime = DispatchTime.now().uptimeNanoseconds
        state.withLock { state in
            state.recordingStart = date
            state.startUptime = uptime
        }
    }

    /// The muxer's next bytes (one box, or part of an `mdat`): false once writing failed.
    /// `retained` is the same buffer kept, for the pre-roll (nil when no events are recorded).
    func write(_ bytes: UnsafeRawBufferPointer, retained: RetainedBuffer? = nil) -> Bool {
        var happened: [Event] = []
        let ok = state.withLock { state -> Bool in
            guard !state.failed, !state.finished else { return false }
            if state.tracks.isEmpty {
                guard FragmentedMovie.boxType(bytes) == FragmentedMovie.moof else {
                    state.header.append(contentsOf: bytes)
                    return true
                }
                state.tracks = state.header.withUnsafeBytes { FragmentedMovie.tracks(in: $0) }
                if let matrix { Self.apply(matrix, to: &state.header) }
            }
            if FragmentedMovie.boxType(bytes) == FragmentedMovie.moof {
                // The fragment before this one is whole: to disk, off this thread.
                if let open = state.open { sync(dup(open.descriptor)) }
                if let descriptor = state.clips?.current?.descriptor { sync(dup(descriptor)) }
                let runs = FragmentedMovie.runs(inFragment: bytes, tracks: state.tracks)
                fragment(runs, &state, &happened)
                eventFragment(runs, retained, &state, &happened)
            } else if let retained {
                state.clips?.append(retained)
            }
            if let descriptor = state.clips?.current?.descriptor, !writeAll(descriptor, bytes) {
                fail(&state, &happened, Self.writeError(url: state.clips?.current?.event.clip ?? naming.folder))
                return false
            }
            guard let descriptor = state.open?.descriptor else { return !state.failed }
            guard writeAll(descriptor, bytes) else {
                fail(&state, &happened, Self.writeError(url: state.open?.segment.url ?? naming.folder))
                return false
            }
            state.open?.segment.byteCount += Int64(bytes.count)
            return true
        }
        happened.forEach(events)
        return ok
    }

    /// Closes the open segment (the recording ended), with `error` when it failed.
    func finish(error: CaptureError?) {
        var happened: [Event] = []
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            close(&state, &happened, reason: error == nil ? .stopped : .failed, error: error)
            endEvent(&state, &happened, at: state.videoEnd)
        }
        happened.forEach(events)
    }

    /// A fragment begins: opens the first file, or the next at a boundary; counts the video.
    private func fragment(_ runs: [FragmentedMovie.Run], _ state: inout State, _ happened: inout [Event]) {
        let video = state.tracks.first { $0.isVideo }
        let videoRun = runs.first { $0.track == video?.id }
        let scale = Double(max(1, video?.timescale ?? 1))
        if let run = videoRun {
            state.videoTime = Double(run.decodeTime) / scale
            state.videoEnd = Double(run.decodeTime + run.duration) / scale
        }
        guard state.writesSegments else { return }
        if let run = videoRun, run.startsWithKeyFrame, state.open != nil {
            let time = Double(run.decodeTime) / scale
            let tolerance = Double(run.duration) / Double(max(1, run.samples)) / scale / 2
            if time + tolerance >= state.nextBoundary {
                close(&state, &happened, reason: .boundary, error: nil)
                while state.nextBoundary <= time + tolerance { state.nextBoundary += segmentDuration }
                open(&state, &happened, at: time)
            }
        }
        if state.open == nil, !state.failed { open(&state, &happened, at: videoRun.map { Double($0.decodeTime) / scale } ?? 0) }
        guard let run = videoRun, var open = state.open else { return }
        open.videoTicks += run.duration
        open.segment.frameCount += run.samples
        open.segment.duration = Double(open.videoTicks) / scale
        state.open = open
    }

    /// Opens the segment starting `time` seconds into the recording, writing the header with
    /// its creation time.
    private func open(_ state: inout State, _ happened: inout [Event], at time: Double) {
        let start = state.recordingStart ?? Date()
        var date = start.addingTimeInterval(time)
        // Names stay in order and unique when the wall clock stepped back since the folder's last
        // segment (a restart after NTP): the recording's dates move forward past it, keeping their
        // spacing on the capture clock.
        // Compared in the names' whole milliseconds: a date a fraction of a millisecond after the
        // last would have had its name.
        if let last = state.lastDate, SegmentNaming.milliseconds(date) <= SegmentNaming.milliseconds(last) {
            let next = Date(timeIntervalSince1970: Double(SegmentNaming.milliseconds(last) + 1) / 1000)
            state.recordingStart = start.addingTimeInterval(next.timeIntervalSince(date))
            date = next
        }
        state.lastDate = date
        let url: URL
        do throws(CaptureError) {
            url = try naming.url(for: date)
        } catch {
            return fail(&state, &happened, error)
        }
        var descriptor = Foundation.open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        while descriptor < 0, errno == ENOSPC, reclaim() {
            descriptor = Foundation.open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            return fail(&state, &happened, errno == ENOSPC ? .diskFull(url, freeBytes: Recording.freeBytes(at: url), limit: 0, finished: false)
                : .recordingFailed(url, error: .pipelineFailed(element: "segment", message: "cannot create the file: \(reason)"), usable: false))
        }
        let header = Self.header(state.header, created: date)
        let segment = MovieSegment(url: url, startDate: date, startTime: time, duration: 0, frameCount: 0, byteCount: Int64(header.count))
        guard header.withUnsafeBytes({ writeAll(descriptor, $0) }) else {
            let error = Self.writeError(url: url)
            Foundation.close(descriptor)
            return fail(&state, &happened, error)
        }
        state.open = Open(descriptor: descriptor, segment: segment)
        happened.append(.started(segment))
    }

    /// Writes `matrix` into the header's `moov` (after `ftyp`).
    static func apply(_ matrix: DisplayMatrix, to header: inout [UInt8]) {
        header.withUnsafeMutableBytes { bytes in
            FragmentedMovie.forEachBox(UnsafeRawBufferPointer(bytes), 0..<bytes.count) { type, body in
                guard type == FragmentedMovie.moov else { return }
                matrix.write(intoMovieHeader: UnsafeMutableRawBufferPointer(rebasing: bytes[(body.lowerBound - 8)..<body.upperBound]))
            }
        }
    }

    /// The stream's header with `date` as its creation and modification time.
    static func header(_ header: [UInt8], created date: Date) -> [UInt8] {
        var header = header
        if let field = header.withUnsafeBytes({ FragmentedMovie.creationTimeField(in: $0) }) {
            let seconds = UInt64(max(0, date.timeIntervalSince1970)) + FragmentedMovie.epochOffset
            let width = field.wide ? 8 : 4
            for index in 0..<width { header[field.offset + index] = UInt8(truncatingIfNeeded: seconds >> (8 * (width - 1 - index))) }
            header.replaceSubrange((field.offset + width)..<(field.offset + 2 * width), with: header[field.offset..<(field.offset + width)])
        }
        return header
    }

    private func close(_ state: inout State, _ happened: inout [Event], reason: MovieSegment.EndReason, error: CaptureError?) {
        guard let open = state.open else { return }
        state.open = nil
        sync(open.descriptor)
        happened.append(.finished(open.segment, reason, error))
    }

    func fail(_ state: inout State, _ happened: inout [Event], _ error: CaptureError) {
        state.failed = true
        close(&state, &happened, reason: .failed, error: error)
        endEvent(&state, &happened, at: state.videoEnd)
        happened.append(.failed(error))
    }

    /// Flushes `descriptor`'s file to disk on the sync queue, then closes the descriptor.
    func sync(_ descriptor: Int32) {
        guard descriptor >= 0 else { return }
        syncQueue.async {
            fsync(descriptor)
            Foundation.close(descriptor)
        }
    }

    /// Why writing `url` failed, from `errno`: a full disk (nothing left to delete), or another
    /// failure; the segment is playable up to its last whole fragment.
    static func writeError(url: URL) -> CaptureError {
        errno == ENOSPC ? .diskFull(url, freeBytes: Recording.freeBytes(at: url), limit: 0, finished: false)
            : .recordingFailed(url, error: .pipelineFailed(element: "segment", message: String(cString: strerror(errno))), usable: true)
    }

    /// Writes all of `bytes`; on a full disk, deletes the oldest closed segments one at a time
    /// and goes on where it stopped. False (with `errno`) when it cannot.
    func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == ENOSPC, reclaim() { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
