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
        /// The running time of the next boundary, where the encoder is asked for a key frame.
        var nextKeyFrame: UInt64 = .max
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
    /// The shared encoder's sink pad and the probe there that asks for key frames (removed
    /// when the recording ends: the encoder outlives it).
    let encoderProbe = Mutex<(pad: Pad, id: UInt)?>(nil)
    /// The key of the encoded stage the branch takes its video from (set when planned).
    let stage = Mutex<String?>(nil)
    let log: SegmentLog
    let writer: SegmentWriter

    /// Whether the sink hands the writer each buffer kept (for the events' pre-roll).
    let keepsBuffers: Bool

    init(naming: SegmentNaming, segmentDuration: CaptureTime, codec: VideoCodecSettings, fragmentInterval: CaptureTime,
         writesSegments: Bool, events: EventRecording?, matrix: DisplayMatrix? = nil, log: SegmentLog) {
        self.naming = naming
        keepsBuffers = events != nil
        segmentNanoseconds = UInt64(max(1, segmentDuration.nanoseconds))
        self.codec = codec
        self.fragmentInterval = fragmentInterval
        self.log = log
        let clips = events.map { EventClips(preRoll: $0.preRoll, postRoll: $0.postRoll, writesFiles: $0.writesClips) }
        writer = SegmentWriter(segmentDuration: segmentDuration.seconds, naming: naming, after: log.lastStart, writesSegments: writesSegments,
                               clips: clips, matrix: matrix, events: log.handle, reclaim: log.reclaimOldest)
    }

    /// An encoded video frame at the branch's entry: the first key frame starts the recording
    /// (frames before it are refused) and sets the first boundary.
    func admitVideo(runningTime: UInt64, isKeyFrame: Bool) -> Bool {
        var started = false
        let admitted = progress.withLock { progress -> Bool in
            guard !progress.finished, progress.start != nil || isKeyFrame else { return false }
            if progress.start == nil {
                progress.start = runningTime
                progress.nextKeyFrame = runningTime + segmentNanoseconds
                started = true
            }
            return true
        }
        if started { writer.setRecordingStart(Date()) }
        return admitted
    }

    /// A raw frame about to enter the encoder (on the encoder's thread): true when it is the
    /// first at or past the next boundary, which must then be a key frame.
    func keyFrameDue(runningTime: UInt64) -> Bool {
        progress.withLock { progress in
            guard !progress.finished, progress.start != nil, runningTime >= progress.nextKeyFrame else { return false }
            progress.nextKeyFrame += segmentNanoseconds * ((runningTime - progress.nextKeyFrame) / segmentNanoseconds + 1)
            return true
        }
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
        if let (pad, id) = encoderProbe.withLock({ probe in defer { probe = nil }; return probe }) { pad.removeProbe(id) }
        writer.finish(error: error)
        log.recordingFinished(output: output, error: error)
    }
}
