import Foundation
import GStreamerSwift
import Synchronization

/// One recording of a ``SegmentedMovieFileOutput``: its folder, its writer and log, and the key
/// frames it asks the encoder for.
///
/// Threading: `admitVideo` and `admitAudio` run on the branch's streaming threads and take a
/// short lock; `finish` runs on the session's side.
final class SegmentedRecording: Sendable {
    struct Progress {
        /// The first admitted key frame's running time: the recording's zero.
        var start: UInt64?
        /// The running time of the next boundary the encoder has been asked a key frame for.
        var nextRequest: UInt64 = 0
        var finished = false
        var attached = false
        /// Why the recording ends, when something other than a stop ends it.
        var ending: CaptureError?
    }

    let naming: SegmentNaming
    let segmentNanoseconds: UInt64
    let codec: VideoCodecSettings
    let fragmentInterval: CaptureTime
    let progress = Mutex(Progress())
    /// The video entry's pad, for the key frames asked of the encoder.
    let entry = Mutex<Pad?>(nil)
    let log: SegmentLog
    let writer: SegmentWriter

    init(naming: SegmentNaming, segmentDuration: CaptureTime, codec: VideoCodecSettings, fragmentInterval: CaptureTime, log: SegmentLog) {
        self.naming = naming
        segmentNanoseconds = UInt64(max(1, segmentDuration.nanoseconds))
        self.codec = codec
        self.fragmentInterval = fragmentInterval
        self.log = log
        writer = SegmentWriter(segmentDuration: segmentDuration.seconds, naming: naming, after: log.lastStart, events: log.handle)
    }

    /// An encoded video frame at the branch's entry: the first key frame starts the recording
    /// (frames before it are refused) and asks the encoder for a key frame at the first
    /// boundary; the frame at a boundary asks for the next one, a segment ahead.
    func admitVideo(runningTime pts: UInt64, isKeyFrame: Bool) -> Bool {
        var started = false
        let request = progress.withLock { progress -> UInt64? in
            guard !progress.finished, progress.start != nil || isKeyFrame else { return nil }
            if progress.start == nil {
                progress.start = pts
                progress.nextRequest = pts + segmentNanoseconds
                started = true
                return progress.nextRequest
            }
            guard pts >= progress.nextRequest else { return 0 }
            progress.nextRequest += segmentNanoseconds * ((pts - progress.nextRequest) / segmentNanoseconds + 1)
            return progress.nextRequest
        }
        guard let request else { return false }
        if started { writer.setRecordingStart(Date()) }
        if request > 0 { _ = entry.withLock { $0 }?.push(.forceKeyUnit(at: request)) }
        return true
    }

    /// An audio buffer at the branch's entry: admitted once the recording has started.
    func admitAudio(runningTime pts: UInt64, duration: UInt64) -> Bool {
        progress.withLock { progress in
            guard !progress.finished, let start = progress.start else { return false }
            return pts + duration > start
        }
    }

    /// The branch is gone: closes the open segment, then did-finish-recording (after every
    /// segment's did-finish).
    func finish(output: SegmentedMovieFileOutput, error: CaptureError?) {
        let first = progress.withLock { progress -> Bool in
            defer { progress.finished = true }
            return !progress.finished
        }
        guard first else { return }
        writer.finish(error: error)
        log.recordingFinished(output: output, error: error)
    }
}
