import Foundation

extension CaptureDevice {
    /// A camera that plays a file: a video (MP4, MOV, Matroska, WebM, AVI…) in a loop at its
    /// own frame rate, or a still image (PNG, JPEG…) repeated at 30 frames a second, as a live
    /// camera does. Its formats are the picture's own size and the common sizes below it with the
    /// same aspect ratio, in BGRA; its position is `.unspecified`; it zooms digitally. The end of
    /// the file never stops a session: the video starts again, with timestamps that go on.
    ///
    /// The same file is the same device (uniqueID `file:` and the absolute path), found again
    /// by `init(uniqueID:)` and `find("file:PATH")`, never listed by `devices()`.
    ///
    /// - Throws: ``CaptureError/Code/fileUnreadable`` for a missing, unreadable or non-regular
    ///   file, ``CaptureError/Code/fileUndecodable`` for one no decoder reads; both name the file
    ///   and the reason.
    public convenience init(fileURL: URL) throws(CaptureError) {
        guard let device = try CaptureContext.shared.registry.resolve(FileKind.scheme + fileURL.path) else {
            throw .fileUnreadable(fileURL.path, reason: "not a file URL")
        }
        self.init(sharing: device)
    }
}
