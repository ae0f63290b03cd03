extension PipelineFile {
    /// The name of a session preset, as in `AVCaptureSession.Preset`.
    ///
    /// The raw values are the spellings used in pipeline files.
    public enum SessionPresetName: String, Sendable, Equatable, Hashable, CaseIterable {
        /// Full-resolution photo quality.
        case photo
        /// The highest quality the device offers.
        case high
        /// A medium quality suitable for sharing.
        case medium
        /// A low quality suitable for transmission.
        case low
        /// 352×288 (CIF).
        case cif352x288
        /// 640×480 (VGA).
        case vga640x480
        /// 1280×720 (720p).
        case hd1280x720
        /// 1920×1080 (1080p).
        case hd1920x1080
        /// 3840×2160 (UHD 4K).
        case hd4K3840x2160
        /// 960×540 iFrame.
        case iFrame960x540
        /// 1280×720 iFrame.
        case iFrame1280x720
        /// Leave the format to the inputs' active formats.
        case inputPriority
    }
}
