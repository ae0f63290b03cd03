import Logging

/// CaptureKit's diagnostics, through swift-log (label "capturekit").
public enum CaptureLog {
    public static let logger = Logger(label: "capturekit")
}
