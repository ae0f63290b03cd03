extension PipelineFile {
    /// The pixel format of a video data output's frames.
    ///
    /// The raw values are the spellings used in pipeline files.
    public enum PixelFormat: String, Sendable, Equatable, Hashable, CaseIterable {
        /// 32-bit BGRA, the default.
        case bgra
        /// 32-bit RGBA.
        case rgba
        /// NV12 (Y plane, interleaved CbCr).
        case nv12
        /// I420 (Y, Cb and Cr planes).
        case i420
        /// 8-bit luma only.
        case gray8
    }
}
