extension PipelineFile {
    /// What a run does with a video data output's frames.
    ///
    /// The raw values are the spellings used in pipeline files.
    public enum VideoDataAction: String, Sendable, Equatable, Hashable, CaseIterable {
        /// Count frames only, the default.
        case count
        /// Write each frame's raw bytes to the output's path.
        case dump
        /// Collect per-frame statistics.
        case stats
    }
}
