import Dispatch
import Foundation
import GStreamerSwift
import Synchronization

/// Cuts one fragmented MP4/MOV or streamed Matroska stream, as the muxer writes it, into
/// segment files.
///
/// The muxer writes its header (`ftyp`, `moov`; Matroska's EBML header, `Info` and `Tracks`)
/// once, then units (``MuxedStream``: fragments, `moof` + `mdat`, or clusters), a new video
/// unit at every key frame. Each segment file is the header (its creation time set to the
/// segment's start) followed by whole units: a new file begins at the first video unit
/// starting with a key frame at or past the next boundary. So every sample is in exactly one
/// file, decode times go on from file to file (each unit keeps its own), and a closed file is
/// final; the open one is playable up to its last whole unit.
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
        /// The video's length in it so far, in ticks of the video's time scale.
        var videoTicks: UInt64 = 0
    }

    struct State {
        var stream: MuxedStream
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
        /// The last video unit's start, and the last video frame's end, on the capture clock.
        var videoTime = 0.0, videoEnd = 0.0
        /// Half the last video frame's length (seconds): how early a key frame may come and
        /// still begin the next segment.
        var halfFrame = 0.0
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
        state = Mutex(State(stream: MuxedStream(container: naming.container), nextBoundary: segmentDuration, lastDate: after,
                            writesSegments: writesSegments, clips: clips))
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

    /// The muxer's next buffer (one box, or part of an `mdat`; a cluster's start, a block's
    /// header or its payload), and whether the buffer is a key unit (not flagged delta): false
    /// once writing failed. `retained` is the same buffer kept, for the pre-roll (nil when no
    /// events are recorded).
    func write(_ bytes: UnsafeRawBufferPointer, keyUnit: Bool = false, retained: RetainedBuffer? = nil) -> Bool {
        var happened: [Event] = []
        let ok = state.withLock { state -> Bool in
            guard !state.failed, !state.finished else { return false }
            let chunk = state.stream.read(bytes, keyUnit: keyUnit)
            if chunk.isHeader { return true }
            if chunk.headerEnded, let matrix { Self.apply(matrix, to: &state.stream.header) }
            if let half = chunk.video?.halfFrame { state.halfFrame = half }
            if let unit = chunk.unit {
                // The unit before this one is whole: to disk, off this thread.
                if let open = state.open { sync(dup(open.descriptor)) }
                if let descriptor = state.clips?.current?.descriptor { sync(dup(descriptor)) }
                begin(unit, &state, &happened)
                eventUnit(unit, retained, &state, &happened)
            } else if let retained {
                state.clips?.append(retained)
            }
            if let video = chunk.video {
                state.videoEnd = video.end
                state.open?.videoTicks += video.ticks
                state.open?.segment.frameCount += video.frames
                if let ticks = state.open?.videoTicks { state.open?.segment.duration = Double(ticks) / Double(video.scale) }
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

    /// A unit begins: opens the first file, or the next at a boundary.
    private func begin(_ unit: (videoTime: Double?, startsWithKeyFrame: Bool), _ state: inout State, _ happened: inout [Event]) {
        if let time = unit.videoTime { state.videoTime = time }
        guard state.writesSegments else { return }
        if let time = unit.videoTime, unit.startsWithKeyFrame, state.open != nil, time + state.halfFrame >= state.nextBoundary {
            close(&state, &happened, reason: .boundary, error: nil)
            while state.nextBoundary <= time + state.halfFrame { state.nextBoundary += segmentDuration }
            open(&state, &happened, at: time)
        }
        if state.open == nil, !state.failed { open(&state, &happened, at: unit.videoTime ?? 0) }
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
        let header = state.stream.header(created: date)
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
