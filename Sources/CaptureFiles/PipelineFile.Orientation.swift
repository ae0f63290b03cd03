extension PipelineFile {
    /// A video orientation for a connection.
    ///
    /// The raw values are the spellings used in pipeline files.
    public enum Orientation: String, Sendable, Equatable, Hashable, CaseIterable {
        /// Upright portrait.
        case portrait
        /// Upside-down portrait.
        case portraitUpsideDown
        /// Landscape, home button on the left.
        case landscapeLeft
        /// Landscape, home button on the right.
        case landscapeRight
    }
}
