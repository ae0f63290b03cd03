/// Every misuse and failure CaptureKit reports: a ``Code`` to branch on, a message that names the
/// offending value and, where there is one, what would have been valid, the GStreamer element
/// that failed and the error underneath.
///
/// Branch on ``code`` with a `default:` case, so that codes added later do not break the switch:
///
/// ```swift
/// do {
///     try device.setVideoZoomFactor(20)
/// } catch {
///     switch error.code {
///     case .notLocked: print("call lockForConfiguration() first")
///     case .outOfRange: print(error.message)
///     default: throw error
///     }
/// }
/// ```
///
/// Two errors are equal when their code, message and element are; the underlying error is not
/// compared.
public struct CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public let code: Code
    /// The full human-readable description: the offending value and what would be valid.
    public let message: String
    /// The name of the GStreamer element that reported the failure, when one did.
    public let element: String?
    /// The error that caused this one (a GStreamer failure, say), when there is one.
    public let underlyingError: (any Error & Sendable)?
    /// The value that was not accepted, as text (the device reference, preset, format, setting
    /// value or number), for the errors that reject a value the caller gave.
    public let value: String?
    /// What would have been accepted instead of ``value`` when that is a list (the devices, presets
    /// or formats there are); empty otherwise.
    public let validValues: [String]
    /// For an error that ended a recording: whether the file is nevertheless complete and
    /// playable (AVErrorRecordingSuccessfullyFinishedKey), as after a limit was reached.
    public let recordingSuccessfullyFinished: Bool
    /// Set on the error a running session's change failed with: the session stopped and posted
    /// it as a runtime error, so a call that does not throw does not report it again.
    var wasPostedAsRuntimeError = false

    /// An error with the given code and message.
    ///
    /// - Parameters:
    ///   - code: What kind of failure this is.
    ///   - message: The full description, naming the offending value and what would be valid.
    ///   - element: The GStreamer element that reported the failure, if any.
    ///   - underlyingError: The error that caused this one, if any.
    public init(code: Code, message: String, element: String? = nil, underlyingError: (any Error & Sendable)? = nil) {
        self.init(code: code, message: message, element: element, underlyingError: underlyingError, value: nil, validValues: [])
    }

    /// The memberwise form the factories use to record the offending value.
    init(code: Code, message: String, element: String? = nil, underlyingError: (any Error & Sendable)? = nil,
         value: String?, validValues: [String] = [], recordingSuccessfullyFinished: Bool = false) {
        self.code = code
        self.message = message
        self.element = element
        self.underlyingError = underlyingError
        self.value = value
        self.validValues = validValues
        self.recordingSuccessfullyFinished = recordingSuccessfullyFinished
    }

    /// The message.
    public var description: String { message }

    /// Whether two errors have the same code, message and element (the underlying error is not compared).
    public static func == (lhs: CaptureError, rhs: CaptureError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.element == rhs.element
    }
}
