import Foundation

/// What refuses an AVFoundation-shaped assignment or call without throwing: a device, an output
/// or a session.
///
/// AVFoundation raises an exception where such a change is misuse (the device not locked, a
/// mode it does not support, a value out of range); CaptureKit never crashes, so the value is
/// left unchanged, the error is logged, and `.CaptureConfigurationError` is posted.
protocol ConfigurationFailureReporting: AnyObject, Sendable {}

extension ConfigurationFailureReporting {
    /// Runs a checked change; when it throws, logs the error and posts
    /// `.CaptureConfigurationError` with the error under `CaptureSessionErrorKey`, synchronously
    /// on the calling thread (as AVFoundation's exception would have been raised there).
    func reportingFailure<Value>(of name: String, _ value: Value, _ change: () throws(CaptureError) -> Void) {
        do {
            try change()
        } catch where error.wasPostedAsRuntimeError {
            // The change was made; the running pipeline failed to follow it, stopped, and posted
            // the error as a runtime error (as commitConfiguration does).
        } catch {
            CaptureLog.logger.error("\(type(of: self)) refused \(name) ← \(value), nothing changed: \(error)")
            NotificationCenter.default.post(name: .CaptureConfigurationError, object: self, userInfo: [CaptureSessionErrorKey: error])
        }
    }
}

extension CaptureDevice: ConfigurationFailureReporting {}
extension CaptureSession: ConfigurationFailureReporting {}
extension CaptureConnection: ConfigurationFailureReporting {}
