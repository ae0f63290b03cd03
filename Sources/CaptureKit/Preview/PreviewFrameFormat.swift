/// How a ``PreviewSink/frames(_:)`` preview hands over its frames.
public enum PreviewFrameFormat: String, Sendable, Hashable, CaseIterable {
    /// Raw BGRA pixels, one plane (what a UI toolkit's image takes).
    case bgra
    /// A JPEG image per frame (quality 80): what a web page shows as MJPEG.
    case jpeg
}
