extension MovieFileOutput {
    /// The video frames encoded into the file of the recording under way so far; 0 when not
    /// recording. With ``recordedDuration`` it gives the frame rate being recorded.
    public var recordedFrameCount: Int {
        guard let recording = state.withLock({ $0.recording }) else { return 0 }
        return recording.progress.withLock { $0.framesOut }
    }
}
