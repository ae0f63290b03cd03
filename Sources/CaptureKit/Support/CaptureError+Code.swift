extension CaptureError {
    /// The kind of a ``CaptureError``, like `AVError.Code`. New codes are added as CaptureKit grows,
    /// so a `switch` over codes needs a `default:` case.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name, e.g. `"deviceNotFound"`.
        public let rawValue: String

        /// The code with that name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The code's name.
        public var description: String { rawValue }

        /// A media type CaptureKit does not capture (only video and audio are).
        public static let unsupportedMediaType = Code(rawValue: "unsupportedMediaType")
        /// No device has that uniqueID, index or name; ``CaptureError/validValues`` lists what exists.
        public static let deviceNotFound = Code(rawValue: "deviceNotFound")
        /// The device cannot produce that media type.
        public static let mediaTypeNotSupported = Code(rawValue: "mediaTypeNotSupported")
        /// The input is already in the session.
        public static let inputAlreadyAdded = Code(rawValue: "inputAlreadyAdded")
        /// The output is already in the session.
        public static let outputAlreadyAdded = Code(rawValue: "outputAlreadyAdded")
        /// Another input of the same media type already feeds the session's outputs.
        public static let inputConflict = Code(rawValue: "inputConflict")
        /// The input or output is not in this session.
        public static let notInSession = Code(rawValue: "notInSession")
        /// The output has no input it can take data from.
        public static let noCompatibleInput = Code(rawValue: "noCompatibleInput")
        /// The preset cannot be used with the session's inputs; ``CaptureError/validValues`` lists those that can.
        public static let unsupportedPreset = Code(rawValue: "unsupportedPreset")
        /// The device has no such format; ``CaptureError/validValues`` lists those it has.
        public static let unsupportedFormat = Code(rawValue: "unsupportedFormat")
        /// The connection is not active or not enabled, or not one of this output's.
        public static let inactiveConnection = Code(rawValue: "inactiveConnection")
        /// The session is not running.
        public static let sessionNotRunning = Code(rawValue: "sessionNotRunning")
        /// A configuration change was committed without a matching begin.
        public static let unbalancedConfiguration = Code(rawValue: "unbalancedConfiguration")
        /// An option value that is not valid; the message says what is.
        public static let invalidSetting = Code(rawValue: "invalidSetting")
        /// The orientation is not supported on this connection.
        public static let unsupportedOrientation = Code(rawValue: "unsupportedOrientation")
        /// The pipeline could not be built or started; ``CaptureError/element`` names GStreamer's element.
        public static let pipelineFailed = Code(rawValue: "pipelineFailed")
        /// A still was requested but the session stopped before a frame arrived.
        public static let captureCancelled = Code(rawValue: "captureCancelled")
        /// Access to the device was denied (EACCES on the device node).
        public static let accessDenied = Code(rawValue: "accessDenied")
        /// The sample holds no data of the requested kind (e.g. JPEG from a raw sample).
        public static let wrongSampleFormat = Code(rawValue: "wrongSampleFormat")
        /// A device setting was changed without `lockForConfiguration()`.
        public static let notLocked = Code(rawValue: "notLocked")
        /// Another process holds the device's configuration lock.
        public static let deviceLocked = Code(rawValue: "deviceLocked")
        /// The device cannot do this; the message names the mode or control.
        public static let unsupported = Code(rawValue: "unsupported")
        /// A value outside its valid range.
        public static let outOfRange = Code(rawValue: "outOfRange")
        /// The device went away or is busy while the session uses it (unplugged, or taken by another
        /// process): the session is interrupted.
        public static let deviceUnavailable = Code(rawValue: "deviceUnavailable")
        /// One output's branch failed; the session keeps running without it.
        public static let branchFailed = Code(rawValue: "branchFailed")
        /// The running session failed as a whole and stopped.
        public static let sessionFailed = Code(rawValue: "sessionFailed")
        /// A file to play as a camera is missing, unreadable or not a regular file.
        public static let fileUnreadable = Code(rawValue: "fileUnreadable")
        /// A file to play as a camera holds no picture CaptureKit can decode.
        public static let fileUndecodable = Code(rawValue: "fileUndecodable")
    }
}
