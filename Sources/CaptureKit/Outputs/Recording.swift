import Dispatch
import Foundation
import GStreamerSwift
import Synchronization

/// One recording of a `MovieFileOutput`: its file and frozen settings, who to tell, and its
/// progress, updated by the branch's probes on streaming threads.
///
/// Threading: the `admit…`/`encoded…`/`wrote…` methods run on streaming threads; they take a
/// short lock, never wait, and hand everything user-facing to `queue` (the delegate's) or, for a
/// limit reached, to `onLimit` on a global queue.
final class Recording: Sendable {
    struct Settings: Sendable, Equatable {
        var url: URL
        var container: MovieContainer
        var codec: VideoCodecSettings
        var fragmentInterval: CaptureTime
        var maxDuration: CaptureTime
        var maxFileSize: Int64
        var minFreeDiskSpace: Int64
        var orientation: VideoOrientation
        var mirrored: Bool

        /// The MP4/MOV display matrix for the orientation and mirroring; nil for the sensor's
        /// own landscape, or for Matroska, which has none.
        var displayMatrix: DisplayMatrix? {
            guard container.fragments, orientation != .landscapeRight || mirrored else { return nil }
            return DisplayMatrix(clockwiseDegrees: orientation.rotationDegrees, mirrored: mirrored)
        }
    }

    struct Progress {
        /// The first video frame's running time: the file's zero.
        var start: UInt64?
        /// The first encoded frame's presentation time (encoders may shift times: durations
        /// after the encoder are measured from it, not from `start`).
        var encodedStart: UInt64?
        /// The end of the last video frame encoded.
        var end: UInt64 = 0
        var framesIn = 0
        var framesOut = 0
        /// The admitted frames not yet out of the branch's queue, and those it dropped.
        var inFlight = InFlightFrames()
        var audioOut = 0
        /// The branch has an audio part, and audio buffers admitted into it so far.
        var hasAudio = false
        var audioIn = 0
        var encodedBytes: Int64 = 0
        var fileBytes: Int64 = 0
        var nextDiskCheck: UInt64 = 0
        /// Why the recording ends, when something other than `stopRecording()` ends it.
        var ending: CaptureError?
        var stopRequested = false
        /// The video's size (`WxH`) when the recording began, and whether it changed since.
        var videoSize: String?
        var formatChanged = false
        var attached = false
        /// Pauses and the time they took out of the file.
        var pause = RecordingPause()
        var finished = false
        /// `stopFinalizing()` was called: the file keeps its fragments.
        var keepsFragments = false
    }

    let settings: Settings
    let delegate: UncheckedDelegate<any FileOutputRecordingDelegate>
    let queue: DispatchQueue
    let connections: [CaptureConnection]
    let progress = Mutex(Progress())
    let syncer: FragmentSyncer
    /// Signalled by the first audio buffer admitted.
    private let firstAudio = DispatchSemaphore(value: 0)
    /// Left once the file's zero is known (its first key frame admitted) or the recording is
    /// over: audio that reached the branch before then waits for it on the branch's own thread.
    private let videoStart = DispatchGroup()
    private let videoStartKnown = Atomic<Bool>(false)
    private let onStart: @Sendable (Recording) -> Void
    private let onLimit: @Sendable (Recording) -> Void
    /// Called (on a streaming thread: it must not block) when a resumed recording's first key
    /// frame is admitted, with the total paused time to take out of the running times.
    let onResume: @Sendable (Recording, UInt64) -> Void
    /// The video entry's pad, for the key frame a resume asks of the encoder, and the pads
    /// into the muxer whose running times a resume moves back by the paused time.
    let pads = Mutex<(entry: Pad?, muxerInputs: [Pad])>((nil, []))

    init(settings: Settings, delegate: any FileOutputRecordingDelegate, queue: DispatchQueue, connections: [CaptureConnection],
         onStart: @escaping @Sendable (Recording) -> Void, onLimit: @escaping @Sendable (Recording) -> Void,
         onResume: @escaping @Sendable (Recording, UInt64) -> Void) {
        self.settings = settings
        self.delegate = UncheckedDelegate(value: delegate)
        self.queue = queue
        self.connections = connections
        self.onStart = onStart
        self.onLimit = onLimit
        self.onResume = onResume
        syncer = FragmentSyncer(url: settings.url)
        videoStart.enter()
    }

    /// The file's zero is known, or will never be: audio waiting for it goes on.
    func videoStartSettled() {
        if !videoStartKnown.exchange(true, ordering: .acquiringAndReleasing) { videoStart.leave() }
    }

    /// On the branch's audio thread (after its queue, never the microphone's): waits, up to
    /// `timeout`, for the file's zero. The encoded video reaches the branch an encode later than
    /// the audio of the same moment, and audio judged before the zero is known was refused: the
    /// buffers spanning the first frame were lost and the audio track started up to two audio
    /// frames late. When the zero does not come within `timeout` (no key frame yet), audio
    /// stops waiting for good and is judged as it comes, as before: a buffer at a time would
    /// otherwise wait again and the queue before it would leak the rest.
    func awaitVideoStart(timeout: DispatchTimeInterval) {
        guard !videoStartKnown.load(ordering: .acquiring) else { return }
        if videoStart.wait(timeout: .now() + timeout) == .timedOut {
            CaptureLog.logger.debug("\(settings.url.path): no key frame within the audio's wait; audio is judged without it")
            videoStartSettled()
        }
    }

    /// The time recorded so far: from the first frame to the end of the last one encoded.
    var duration: CaptureTime {
        progress.withLock { progress in
            guard let start = progress.encodedStart, progress.end > start + progress.pause.total else { return .zero }
            return CaptureTime(nanoseconds: progress.end - start - progress.pause.total)
        }
    }

    /// An encoded video frame at the branch's entry, by its running time: the first key frame
    /// becomes the file's zero (and did-start is sent; frames before it are refused); frames at
    /// or past the maximum duration are refused and end the recording. `presentationTime` is
    /// the buffer's own, which identifies it when it leaves the queue.
    func admitVideo(runningTime pts: UInt64, presentationTime: UInt64, isKeyFrame: Bool) -> Bool {
        var started = false
        var resumed: UInt64?
        var limit: CaptureError?
        let admitted = progress.withLock { progress -> Bool in
            guard !progress.finished, !progress.formatChanged, !progress.pause.isPaused else { return false }
            if progress.pause.awaitingKeyFrame {
                guard isKeyFrame else { return false }
                resumed = progress.pause.resume(at: pts)
            }
            if let start = progress.start {
                let recorded = pts >= start + progress.pause.total ? pts - start - progress.pause.total : 0
                if settings.maxDuration.isNumeric, recorded >= UInt64(max(0, settings.maxDuration.nanoseconds)) {
                    limit = CaptureError.maximumDurationReached(settings.maxDuration)
                    return false
                }
            } else {
                guard isKeyFrame else { return false }
                progress.start = pts
                started = true
            }
            progress.framesIn += 1
            progress.inFlight.entered(presentationTime)
            progress.pause.admitted(videoAt: pts)
            return true
        }
        if started {
            videoStartSettled()
            onStart(self)
        }
        if let resumed { onResume(self, resumed) }
        if let limit { requestStop(limit) }
        return admitted
    }

    /// New caps at the video entry: true (drop them, and end the recording) when the size
    /// differs from the recording's first; frames of the new size are refused from then on.
    func videoCapsChanged(to caps: String) -> Bool {
        guard let size = Self.size(in: caps) else { return false }
        let old = progress.withLock { progress -> String? in
            guard let first = progress.videoSize else {
                progress.videoSize = size
                return nil
            }
            guard first != size else { return nil }
            progress.formatChanged = true
            return first
        }
        guard let old else { return false }
        requestStop(.recordingFormatChanged(from: old, to: size))
        return true
    }

    /// `WxH` from caps text (`width=(int)640, height=(int)480`).
    static func size(in caps: String) -> String? {
        guard let width = caps.firstMatch(of: /width=\(int\)(\d+)/)?.1, let height = caps.firstMatch(of: /height=\(int\)(\d+)/)?.1 else { return nil }
        return "\(width)x\(height)"
    }

    /// An audio buffer at the branch's entry, by its running time: admitted from the first video
    /// frame's time on (the buffer that spans it included), up to the maximum duration.
    func admitAudio(runningTime pts: UInt64, duration: UInt64) -> Bool {
        let (admitted, first) = progress.withLock { progress -> (Bool, Bool) in
            guard !progress.finished, let start = progress.start, pts + duration > start, progress.pause.admitsAudio(at: pts, duration: duration) else {
                return (false, false)
            }
            let recorded = pts >= start + progress.pause.total ? pts - start - progress.pause.total : 0
            if settings.maxDuration.isNumeric, recorded >= UInt64(max(0, settings.maxDuration.nanoseconds)) {
                return (false, false)
            }
            progress.audioIn += 1
            return (true, progress.audioIn == 1)
        }
        if first { firstAudio.signal() }
        return admitted
    }

    /// Before the branch is ended: when it has video in the file and an audio part that has
    /// had no buffer yet, waits (up to `timeout`) for the first one. An audio track that ends
    /// before its first buffer has no format, and MP4 and MOV files with such a track open in
    /// no player (a recording stopped at once after did-start was one, about half the time).
    /// Called from the thread that stops the recording, never a streaming thread.
    func waitForAudioToStart(timeout: DispatchTimeInterval) {
        let waits = progress.withLock { $0.hasAudio && $0.framesIn > 0 && $0.audioIn == 0 && !$0.finished }
        guard waits else { return }
        if firstAudio.wait(timeout: .now() + timeout) == .timedOut {
            CaptureLog.logger.warning("\(settings.url.path): no audio reached the recording before it was stopped; its audio track is empty")
        }
    }

    /// An encoded video frame on its way into the muxer: advances the duration, and checks the
    /// size limit and (once a second of media) the free disk space.
    func encodedVideo(presentationTime pts: UInt64, duration: UInt64, bytes: Int) {
        var limit: CaptureError?
        progress.withLock { progress in
            progress.framesOut += 1
            progress.inFlight.left(pts)
            if progress.encodedStart == nil { progress.encodedStart = pts }
            progress.end = max(progress.end, pts + duration)
            progress.encodedBytes += Int64(bytes)
            if settings.maxFileSize > 0, estimatedFileSize(progress) >= settings.maxFileSize {
                limit = .maximumFileSizeReached(settings.maxFileSize)
            }
            if settings.minFreeDiskSpace > 0, pts >= progress.nextDiskCheck {
                progress.nextDiskCheck = pts + 1_000_000_000
                let free = Self.freeBytes(at: settings.url)
                if free < settings.minFreeDiskSpace {
                    limit = .diskFull(settings.url, freeBytes: free, limit: settings.minFreeDiskSpace, finished: true)
                }
            }
        }
        if let limit { requestStop(limit) }
    }

    /// An encoded audio frame on its way into the muxer.
    func encodedAudio(bytes: Int) {
        progress.withLock { progress in
            progress.audioOut += 1
            progress.encodedBytes += Int64(bytes)
        }
    }

    /// Bytes on their way into the file; `fragmentEnds` when they close a fragment (a `moof`
    /// box), which is then flushed to disk off this thread.
    func wrote(bytes: Int, fragmentEnds: Bool) {
        let total = progress.withLock { progress in
            progress.fileBytes += Int64(bytes)
            return progress.fileBytes
        }
        if fragmentEnds { syncer.sync(through: total) }
    }

    /// The file's size when finished, estimated while recording: the encoded media, the index
    /// (about 40 bytes a frame between fragments' and the final index), and what is still in
    /// flight (a quarter second at the rate so far).
    private func estimatedFileSize(_ progress: Progress) -> Int64 {
        let frames = Int64(progress.framesOut + progress.audioOut)
        let seconds = progress.encodedStart.map { Double(progress.end - min($0, progress.end)) / 1e9 } ?? 0
        let inFlight = seconds > 0.5 ? Int64(Double(progress.encodedBytes) / seconds * 0.25) : 0
        return progress.encodedBytes + 8192 + 40 * frames + inFlight
    }

    /// Ends the recording for `reason` (once), from any thread: `onLimit` runs on a global queue.
    func requestStop(_ reason: CaptureError) {
        let first = progress.withLock { progress -> Bool in
            guard !progress.stopRequested, !progress.finished else { return false }
            progress.stopRequested = true
            progress.ending = reason
            return true
        }
        guard first else { return }
        DispatchQueue.global().async { self.onLimit(self) }
    }

    /// Free bytes on the file system holding `url` (for an unprivileged writer).
    static func freeBytes(at url: URL) -> Int64 {
        var stats = statvfs()
        guard statvfs(url.deletingLastPathComponent().path, &stats) == 0 else { return Int64.max }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }
}
