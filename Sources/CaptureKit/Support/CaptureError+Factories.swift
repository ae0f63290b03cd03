import GStreamerSwift

/// The factories CaptureKit throws with, each writing the message that names the offending value.
extension CaptureError {
    /// A media type CaptureKit does not capture (only video and audio are).
    public static func unsupportedMediaType(_ type: MediaType) -> CaptureError {
        CaptureError(code: .unsupportedMediaType, message: "media type '\(type.rawValue)' is not captured; use .video or .audio",
                     value: type.rawValue, validValues: [MediaType.video.rawValue, MediaType.audio.rawValue])
    }

    /// No device has that uniqueID, index or name; `available` lists what exists.
    public static func deviceNotFound(_ reference: String, available: [String]) -> CaptureError {
        CaptureError(code: .deviceNotFound, message: "no device '\(reference)'; available: \(available.joined(separator: ", "))",
                     value: reference, validValues: available)
    }

    /// The device cannot produce that media type.
    public static func mediaTypeNotSupported(device: String, mediaType: MediaType) -> CaptureError {
        CaptureError(code: .mediaTypeNotSupported, message: "device '\(device)' has no \(mediaType.rawValue) media",
                     value: mediaType.rawValue)
    }

    /// The input is already in the session.
    public static func inputAlreadyAdded(device: String) -> CaptureError {
        CaptureError(code: .inputAlreadyAdded, message: "an input for '\(device)' is already in the session")
    }

    /// The output is already in the session.
    public static func outputAlreadyAdded(output: String) -> CaptureError {
        CaptureError(code: .outputAlreadyAdded, message: "output '\(output)' is already in the session")
    }

    /// Another input of the same media type already feeds the session's outputs.
    public static func inputConflict(device: String, existing: String) -> CaptureError {
        CaptureError(code: .inputConflict,
                     message: "cannot add '\(device)': '\(existing)' already provides video; remove it first (inside begin/commitConfiguration to switch)")
    }

    /// The input or output is not in this session.
    public static func notInSession(_ what: String) -> CaptureError {
        CaptureError(code: .notInSession, message: "'\(what)' is not in this session")
    }

    /// The output has no input it can take data from.
    public static func noCompatibleInput(output: String) -> CaptureError {
        CaptureError(code: .noCompatibleInput, message: "output '\(output)' has no input with a compatible port; add a video input first")
    }

    /// The preset cannot be used with the session's inputs; `supported` lists those that can.
    public static func unsupportedPreset(_ preset: SessionPreset, supported: [SessionPreset]) -> CaptureError {
        let names = supported.map(\.rawValue)
        return CaptureError(code: .unsupportedPreset,
                            message: "preset '\(preset.rawValue)' is not supported by the session's inputs; supported: \(names.joined(separator: ", "))",
                            value: preset.rawValue, validValues: names)
    }

    /// The device has no such format; `available` lists those it has.
    public static func unsupportedFormat(_ format: String, available: [String]) -> CaptureError {
        CaptureError(code: .unsupportedFormat, message: "format '\(format)' is not offered; available: \(available.joined(separator: ", "))",
                     value: format, validValues: available)
    }

    /// The connection is not active or not enabled, or not one of this output's.
    public static func inactiveConnection(_ connection: String) -> CaptureError {
        CaptureError(code: .inactiveConnection, message: "connection \(connection) is not active and enabled")
    }

    /// The session is not running.
    public static let sessionNotRunning = CaptureError(code: .sessionNotRunning,
                                                       message: "the session is not running; call startRunning() first")

    /// A configuration change was committed without a matching begin.
    public static let unbalancedConfiguration = CaptureError(code: .unbalancedConfiguration,
                                                             message: "commitConfiguration() without beginConfiguration()")

    /// An option value that is not valid; `valid` says what is.
    public static func invalidSetting(name: String, value: String, valid: String) -> CaptureError {
        CaptureError(code: .invalidSetting, message: "'\(value)' is not a valid \(name); valid: \(valid)", value: value)
    }

    /// The orientation is not supported on this connection.
    public static func unsupportedOrientation(_ orientation: VideoOrientation) -> CaptureError {
        CaptureError(code: .unsupportedOrientation, message: "orientation '\(orientation)' is not supported on this connection",
                     value: "\(orientation)")
    }

    /// The pipeline could not be built or started; `element` is GStreamer's element name and
    /// `underlyingError` the failure underneath, when there is one.
    public static func pipelineFailed(element: String?, message: String,
                                      underlyingError: (any Error & Sendable)? = nil) -> CaptureError {
        CaptureError(code: .pipelineFailed, message: "pipeline failed" + (element.map { " in '\($0)'" } ?? "") + ": \(message)",
                     element: element, underlyingError: underlyingError)
    }

    /// A GStreamer failure while building or running the pipeline: its description is the message,
    /// the element it names (or `element`, when given) is the element, and it is the underlying error.
    static func pipelineFailed(_ error: GStreamerError, element: String? = nil) -> CaptureError {
        pipelineFailed(element: element ?? error.elementName, message: error.description, underlyingError: error)
    }

    /// A still was requested but the session stopped before a frame arrived.
    public static let captureCancelled = CaptureError(code: .captureCancelled,
                                                      message: "the session stopped before the still was captured")

    /// Access to the device was denied (EACCES on the device node).
    public static func accessDenied(device: String, reason: String) -> CaptureError {
        CaptureError(code: .accessDenied, message: "access to '\(device)' denied: \(reason)")
    }

    /// The sample holds no data of the requested kind (e.g. JPEG from a raw sample).
    public static func wrongSampleFormat(expected: String, found: String) -> CaptureError {
        CaptureError(code: .wrongSampleFormat, message: "expected a \(expected) sample, found \(found)")
    }

    /// A device setting was changed without `lockForConfiguration()`.
    public static func notLocked(device: String) -> CaptureError {
        CaptureError(code: .notLocked, message: "'\(device)' is not locked for configuration; call lockForConfiguration() first")
    }

    /// Another process holds the device's configuration lock; `holderPID` is that process, when known.
    public static func deviceLocked(device: String, holderPID: Int32?) -> CaptureError {
        CaptureError(code: .deviceLocked,
                     message: "'\(device)' is locked for configuration by " + (holderPID.map { "process \($0)" } ?? "another process"))
    }

    /// The device cannot do this; `feature` names the mode or control.
    public static func unsupported(feature: String, device: String) -> CaptureError {
        CaptureError(code: .unsupported, message: "'\(device)' does not support \(feature)")
    }

    /// A file to play as a camera that cannot be read; `reason` says why ("no such file or directory").
    public static func fileUnreadable(_ path: String, reason: String) -> CaptureError {
        CaptureError(code: .fileUnreadable, message: "cannot read '\(path)': \(reason)", value: path)
    }

    /// A file to play as a camera that no decoder reads; `reason` is GStreamer's or the header's.
    public static func fileUndecodable(_ path: String, reason: String) -> CaptureError {
        CaptureError(code: .fileUndecodable, message: "cannot decode '\(path)': \(reason)", value: path)
    }

    /// A value outside its valid range.
    public static func outOfRange(name: String, value: Double, range: ClosedRange<Double>) -> CaptureError {
        CaptureError(code: .outOfRange, message: "\(name) \(value) is out of range \(range.lowerBound)...\(range.upperBound)",
                     value: "\(value)")
    }
}
