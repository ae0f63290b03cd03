extension PipelineFile.StillFormat {
    /// The file extension used in default still paths: `jpg` for JPEG, the format name otherwise.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .bgra, .nv12, .i420: rawValue
        }
    }
}
