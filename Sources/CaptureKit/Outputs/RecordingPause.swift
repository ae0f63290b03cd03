/// A recording's pauses (`pauseRecording()`/`resumeRecording()`), kept by its probes' lock.
///
/// While paused, video and audio are refused at the branch's entry. On resume, video waits for
/// a key frame (the encoder is asked for one); that frame carries on from where the last frame
/// before the pause ended, so the file has no gap: the time between is added to `total`, which
/// the branch takes out of the running times into the muxer. Audio is admitted from the same
/// frame on.
struct RecordingPause {
    var isPaused = false
    /// Resumed, waiting for a key frame to carry on from.
    var awaitingKeyFrame = false
    /// The paused time taken out of the file so far, in nanoseconds.
    var total: UInt64 = 0
    /// The last video frame admitted (running time) and the interval before it.
    private var lastVideo: UInt64?
    private var lastInterval: UInt64 = 0
    /// Where the frame before the pause ended.
    private var pausedAt: UInt64?
    /// The running time the recording resumed at: audio from before it is refused.
    private var resumedAt: UInt64?

    /// Pauses: the last frame admitted, plus one frame interval, is where the file stops.
    mutating func pause() {
        guard !isPaused else { return }
        isPaused = true
        awaitingKeyFrame = false
        pausedAt = lastVideo.map { $0 + lastInterval }
    }

    mutating func requestResume() {
        guard isPaused else { return }
        isPaused = false
        awaitingKeyFrame = true
    }

    /// The key frame at `time` resumes the file: returns the new total paused time.
    mutating func resume(at time: UInt64) -> UInt64 {
        awaitingKeyFrame = false
        if let pausedAt, time > pausedAt { total += time - pausedAt }
        resumedAt = time
        return total
    }

    mutating func admitted(videoAt time: UInt64) {
        if let lastVideo, time > lastVideo { lastInterval = time - lastVideo }
        lastVideo = time
    }

    /// Whether audio at `time` (lasting `duration`) belongs in the file: not while paused or
    /// waiting for the resuming key frame, nor from before the resume.
    func admitsAudio(at time: UInt64, duration: UInt64) -> Bool {
        guard !isPaused, !awaitingKeyFrame else { return false }
        if let resumedAt, time + duration <= resumedAt { return false }
        return true
    }
}
