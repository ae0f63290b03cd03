extension PipelineFile {
    /// The encoding of a still output's photos.
    ///
    /// The raw values are the spellings used in pipeline files.
    public enum StillFormat: String, Sendable, Equatable, Hashable, CaseIterable {
        /// JPEG, the default.
        case jpeg
        /// Raw 32-bit BGRA.
        case bgra
        /// Raw NV12 (Y plane, interleaved CbCr).
        case nv12
        /// Raw I420 (Y, Cb and Cr planes).
        case i420
    }
}
