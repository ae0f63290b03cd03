/// Every misuse and failure CaptureKit reports. Each case carries the offending value and,
/// where there is one, what would have been valid.
public enum CaptureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A media type CaptureKit does not capture (only video and audio are).
    case unsupportedMediaType(MediaType)
    /// No device has that uniqueID, index or name; `available` lists what exists.
    case deviceNotFound(String, available: [String])
    /// The device cannot produce that media type.
    case mediaTypeNotSupported(device: String, mediaType: MediaType)
    /// The input is already in the session.
    case inputAlreadyAdded(device: String)
    /// The output is already in the session.
    case outputAlreadyAdded(output: String)
    /// Another input of the same media type already feeds the session's outputs.
    case inputConflict(device: String, existing: String)
    /// The input or output is not in this session.
    case notInSession(String)
    /// The output has no input it can take data from.
    case noCompatibleInput(output: String)
    /// The preset cannot be used with the session's inputs; `supported` lists those that can.
    case unsupportedPreset(SessionPreset, supported: [SessionPreset])
    /// The device has no such format.
    case unsupportedFormat(String, available: [String])
    /// The connection is not active or not enabled, or not one of this output's.
    case inactiveConnection(String)
    /// The session is not running.
    case sessionNotRunning
    /// A configuration change was committed without a matching begin.
    case unbalancedConfiguration
    /// An option value that is not valid; `valid` says what is.
    case invalidSetting(name: String, value: String, valid: String)
    /// The orientation is not supported on this connection.
    case unsupportedOrientation(VideoOrientation)
    /// The pipeline could not be built or started; `element` is GStreamer's element name.
    case pipelineFailed(element: String?, message: String)
    /// A still was requested but the session stopped before a frame arrived.
    case captureCancelled
    /// Access to the device was denied (EACCES on the device node).
    case accessDenied(device: String, reason: String)
    /// The sample holds no data of the requested kind (e.g. JPEG from a raw sample).
    case wrongSampleFormat(expected: String, found: String)
    /// A device setting was changed without `lockForConfiguration()`.
    case notLocked(device: String)
    /// Another process holds the device's configuration lock.
    case deviceLocked(device: String, holderPID: Int32?)
    /// The device cannot do this; `feature` names the mode or control.
    case unsupported(feature: String, device: String)
    /// A value outside its valid range.
    case outOfRange(name: String, value: Double, range: ClosedRange<Double>)

    public var description: String {
        switch self {
        case .unsupportedMediaType(let type):
            return "media type '\(type.rawValue)' is not captured; use .video or .audio"
        case .deviceNotFound(let reference, let available):
            return "no device '\(reference)'; available: \(available.joined(separator: ", "))"
        case .mediaTypeNotSupported(let device, let type):
            return "device '\(device)' has no \(type.rawValue) media"
        case .inputAlreadyAdded(let device):
            return "an input for '\(device)' is already in the session"
        case .outputAlreadyAdded(let output):
            return "output '\(output)' is already in the session"
        case .inputConflict(let device, let existing):
            return "cannot add '\(device)': '\(existing)' already provides video; remove it first (inside begin/commitConfiguration to switch)"
        case .notInSession(let what):
            return "'\(what)' is not in this session"
        case .noCompatibleInput(let output):
            return "output '\(output)' has no input with a compatible port; add a video input first"
        case .unsupportedPreset(let preset, let supported):
            return "preset '\(preset.rawValue)' is not supported by the session's inputs; supported: \(supported.map(\.rawValue).joined(separator: ", "))"
        case .unsupportedFormat(let format, let available):
            return "format '\(format)' is not offered; available: \(available.joined(separator: ", "))"
        case .inactiveConnection(let connection):
            return "connection \(connection) is not active and enabled"
        case .sessionNotRunning:
            return "the session is not running; call startRunning() first"
        case .unbalancedConfiguration:
            return "commitConfiguration() without beginConfiguration()"
        case .invalidSetting(let name, let value, let valid):
            return "'\(value)' is not a valid \(name); valid: \(valid)"
        case .unsupportedOrientation(let orientation):
            return "orientation '\(orientation)' is not supported on this connection"
        case .pipelineFailed(let element, let message):
            return "pipeline failed" + (element.map { " in '\($0)'" } ?? "") + ": \(message)"
        case .captureCancelled:
            return "the session stopped before the still was captured"
        case .accessDenied(let device, let reason):
            return "access to '\(device)' denied: \(reason)"
        case .wrongSampleFormat(let expected, let found):
            return "expected a \(expected) sample, found \(found)"
        case .notLocked(let device):
            return "'\(device)' is not locked for configuration; call lockForConfiguration() first"
        case .deviceLocked(let device, let pid):
            return "'\(device)' is locked for configuration by " + (pid.map { "process \($0)" } ?? "another process")
        case .unsupported(let feature, let device):
            return "'\(device)' does not support \(feature)"
        case .outOfRange(let name, let value, let range):
            return "\(name) \(value) is out of range \(range.lowerBound)...\(range.upperBound)"
        }
    }
}
