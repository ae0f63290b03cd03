import Logging

/// The server's log (swift-log): what a client did wrong is answered, not logged; what the
/// server itself could not do is logged as an error.
enum CaptureServerLog {
    static let logger = Logger(label: "CaptureServer")
}
