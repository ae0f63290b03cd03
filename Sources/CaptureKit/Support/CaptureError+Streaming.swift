extension CaptureError.Code {
    /// A stream target's text is not one of ``StreamTarget/acceptedForms``.
    public static let invalidStreamTarget = CaptureError.Code(rawValue: "invalidStreamTarget")
    /// A stream's peer or server failed (refused, went away, address in use); a caller or
    /// publisher tries again with back-off, the session and other outputs run on.
    public static let streamFailed = CaptureError.Code(rawValue: "streamFailed")
}

extension CaptureError {
    /// `text` is not a stream target; `why` says what is wrong with it.
    public static func invalidStreamTarget(_ text: String, why: String) -> CaptureError {
        CaptureError(code: .invalidStreamTarget,
                     message: "'\(text)' is not a stream target (\(why)); accepted: \(StreamTarget.acceptedForms.joined(separator: ", "))",
                     value: text, validValues: StreamTarget.acceptedForms)
    }

    /// Streaming to `target` failed: `message` says how.
    static func streamFailed(_ target: StreamTarget, message: String, element: String? = nil) -> CaptureError {
        CaptureError(code: .streamFailed, message: "streaming to \(target.description) failed: \(message)", element: element, value: target.description)
    }
}
