extension PipelineFile {
    /// How long a pipeline runs.
    public enum RunLength: Sendable, Equatable, Hashable {
        /// Run until every `videoData` output has received this many frames (at least 1)
        /// and every still has been taken.
        case frames(Int)
        /// Run for this many seconds (finite, greater than 0).
        case seconds(Double)
    }
}
