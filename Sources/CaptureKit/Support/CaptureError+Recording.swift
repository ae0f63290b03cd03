import Foundation

extension CaptureError.Code {
    /// A recording reached `maxRecordedDuration`; the file is complete.
    public static let maximumDurationReached = CaptureError.Code(rawValue: "maximumDurationReached")
    /// A recording reached `maxRecordedFileSize`; the file is complete.
    public static let maximumFileSizeReached = CaptureError.Code(rawValue: "maximumFileSizeReached")
    /// The disk filled up, or its free space fell below `minFreeDiskSpaceLimit`.
    public static let diskFull = CaptureError.Code(rawValue: "diskFull")
    /// A recording was asked to write a file that already exists.
    public static let fileAlreadyExists = CaptureError.Code(rawValue: "fileAlreadyExists")
    /// A recording's file name has an extension no container is made for.
    public static let unsupportedFileType = CaptureError.Code(rawValue: "unsupportedFileType")
    /// The session stopped while recording; the file is complete.
    public static let sessionStopped = CaptureError.Code(rawValue: "sessionStopped")
    /// The camera's format changed during a recording; the file was finished with the frames
    /// of the first format.
    public static let formatChanged = CaptureError.Code(rawValue: "formatChanged")
    /// Encoding or writing a recording failed.
    public static let recordingFailed = CaptureError.Code(rawValue: "recordingFailed")
    /// A recording ended before its first frame (AVError.noDataCaptured); no file was left.
    public static let noDataCaptured = CaptureError.Code(rawValue: "noDataCaptured")
    /// A recording's MP4 or MOV file is complete and plays, but keeps the fragments it was
    /// written in: giving it a single index failed, stalled or was stopped.
    public static let movieNotFinalized = CaptureError.Code(rawValue: "movieNotFinalized")
}

extension CaptureError {
    /// The recording reached its maximum duration; the file is complete and playable.
    public static func maximumDurationReached(_ limit: CaptureTime) -> CaptureError {
        CaptureError(code: .maximumDurationReached, message: "the recording reached its maximum duration, \(limit.seconds) s",
                     value: "\(limit.seconds)", recordingSuccessfullyFinished: true)
    }

    /// The recording reached its maximum file size; the file is complete and playable.
    public static func maximumFileSizeReached(_ limit: Int64) -> CaptureError {
        CaptureError(code: .maximumFileSizeReached, message: "the recording reached its maximum file size, \(limit) bytes",
                     value: "\(limit)", recordingSuccessfullyFinished: true)
    }

    /// The disk holding `url` filled up (`limit` 0) or fell below `limit` free bytes. When the
    /// limit stopped the recording the file was finished; a full disk leaves it playable up to
    /// its last fragment.
    public static func diskFull(_ url: URL, freeBytes: Int64, limit: Int64, finished: Bool) -> CaptureError {
        let why = limit > 0 ? "below the free-space limit of \(limit) bytes" : "full"
        return CaptureError(code: .diskFull, message: "the disk holding '\(url.path)' is \(why) (\(freeBytes) bytes free)",
                            value: url.path, recordingSuccessfullyFinished: finished)
    }

    /// A recording would overwrite an existing file.
    public static func fileAlreadyExists(_ url: URL) -> CaptureError {
        CaptureError(code: .fileAlreadyExists, message: "'\(url.path)' already exists: remove it or record to another file",
                     value: url.path)
    }

    /// A recording's extension names no container CaptureKit writes.
    public static func unsupportedFileType(_ url: URL, supported: [String]) -> CaptureError {
        CaptureError(code: .unsupportedFileType,
                     message: "cannot record '\(url.lastPathComponent)': the extension '\(url.pathExtension)' is not one of "
                         + supported.map { ".\($0)" }.joined(separator: ", "),
                     value: url.pathExtension, validValues: supported)
    }

    /// A device the recording took media from went away or was taken (`reason`); the file was
    /// finished with what came before.
    public static func recordingInterrupted(device: String, reason: InterruptionReason) -> CaptureError {
        CaptureError(code: .deviceUnavailable, message: "'\(device)' stopped delivering (\(reason.rawValue)); the recording was finished",
                     value: device, recordingSuccessfullyFinished: true)
    }

    /// The video's size changed from `old` to `new` during a recording (a format change or a
    /// camera of another size); the file was finished with the frames before.
    public static func recordingFormatChanged(from old: String, to new: String) -> CaptureError {
        CaptureError(code: .formatChanged,
                     message: "the video changed from \(old) to \(new) during the recording, which a movie file cannot hold; it was finished at the change",
                     value: new, recordingSuccessfullyFinished: true)
    }

    /// The session stopped during a recording; the file was finished.
    public static let sessionStopped = CaptureError(code: .sessionStopped, message: "the session stopped; the recording was finished",
                                                    value: nil, recordingSuccessfullyFinished: true)

    /// A recording to `url` ended before a frame reached its file; the file, which held no media,
    /// was removed.
    public static func noDataCaptured(_ url: URL) -> CaptureError {
        CaptureError(code: .noDataCaptured, message: "the recording to '\(url.path)' ended before its first frame; no file was written",
                     value: url.path)
    }

    /// The recording to `url` finished and its file is complete and playable, but it keeps the
    /// fragments it was written in: giving it a single index `reason` ("was interrupted", "made
    /// no progress for 20 s", "failed: …"). `ending` is what ended the recording when something
    /// other than `stopRecording()` did (a limit), kept as the ``underlyingError``.
    public static func movieNotFinalized(_ url: URL, because reason: String, ending: CaptureError?) -> CaptureError {
        CaptureError(code: .movieNotFinalized,
                     message: "'\(url.path)' stays fragmented: writing its single index \(reason); it plays as it is",
                     underlyingError: ending, value: url.path, recordingSuccessfullyFinished: true)
    }

    /// Encoding or writing a recording failed (`error` tells where); `usable` whether the file
    /// plays up to its last fragment.
    public static func recordingFailed(_ url: URL, error: CaptureError, usable: Bool) -> CaptureError {
        CaptureError(code: .recordingFailed, message: "recording to '\(url.path)' failed: \(error.message)", element: error.element,
                     underlyingError: error, value: url.path, recordingSuccessfullyFinished: usable)
    }
}
