import Foundation

/// AVFoundation's session calls, which never throw. AVFoundation raises an exception where one
/// of them is misuse (an input that cannot be added, an output already in the session); here
/// the session is left as it was, the error is logged and posted as `.CaptureConfigurationError`
/// with the session as object. ``CaptureSession/checked`` has the same calls in forms that throw.
extension CaptureSession {
    /// Adds an input and connects it to every output that has no connection yet. Ask
    /// `canAddInput(_:)` first; a refused input is reported as `.CaptureConfigurationError`.
    public func addInput(_ input: any CaptureInput) {
        reportingFailure(of: "addInput", input) { () throws(CaptureError) in try checkedAddInput(input) }
    }

    /// Adds an input without forming connections; use `addConnection(_:)` to connect it.
    public func addInputWithNoConnections(_ input: any CaptureInput) {
        reportingFailure(of: "addInputWithNoConnections", input) { () throws(CaptureError) in try checkedAddInputWithNoConnections(input) }
    }

    /// Removes an input and its connections.
    public func removeInput(_ input: any CaptureInput) {
        reportingFailure(of: "removeInput", input) { () throws(CaptureError) in try checkedRemoveInput(input) }
    }

    /// Adds an output and connects it to the first input port of each media type it takes. Ask
    /// `canAddOutput(_:)` first; a refused output is reported as `.CaptureConfigurationError`.
    public func addOutput(_ output: any CaptureOutput) {
        reportingFailure(of: "addOutput", type(of: output)) { () throws(CaptureError) in try checkedAddOutput(output) }
    }

    /// Adds an output without forming connections.
    public func addOutputWithNoConnections(_ output: any CaptureOutput) {
        reportingFailure(of: "addOutputWithNoConnections", type(of: output)) { () throws(CaptureError) in try checkedAddOutputWithNoConnections(output) }
    }

    /// Removes an output and its connections.
    public func removeOutput(_ output: any CaptureOutput) {
        reportingFailure(of: "removeOutput", type(of: output)) { () throws(CaptureError) in try checkedRemoveOutput(output) }
    }

    /// Adds a connection made with `CaptureConnection(inputPorts:output:)`.
    public func addConnection(_ connection: CaptureConnection) {
        reportingFailure(of: "addConnection", connection) { () throws(CaptureError) in try checkedAddConnection(connection) }
    }

    /// Removes a connection.
    public func removeConnection(_ connection: CaptureConnection) {
        reportingFailure(of: "removeConnection", connection) { () throws(CaptureError) in try checkedRemoveConnection(connection) }
    }

    /// Applies the batch when the outermost `beginConfiguration()` is committed. On a running
    /// session only what changed is changed in the running pipeline; a change the pipeline
    /// cannot make stops the session and posts `runtimeErrorNotification`, as AVFoundation does.
    /// A commit without a begin is reported as `.CaptureConfigurationError`.
    public func commitConfiguration() {
        do {
            try checkedCommitConfiguration()
        } catch where error.code == .unbalancedConfiguration {
            reportingFailure(of: "commitConfiguration", "()") { () throws(CaptureError) in throw error }
        } catch {
            // Already posted as a runtime error by the running pipeline's change.
        }
    }

    /// Builds and starts the pipeline, blocking until it runs, as AVFoundation's does: call it
    /// off the main thread. When the session cannot start (an output without an input, a
    /// missing element, a device that fails to start) it stays stopped, and the error is logged
    /// and posted as `runtimeErrorNotification` (on the session's notification queue) with the
    /// error under `CaptureSessionErrorKey`. The `startRunning()` of ``Checked`` throws it instead.
    public func startRunning() {
        do {
            try checkedStartRunning()
        } catch {
            CaptureLog.logger.error("the session did not start: \(error)")
            postRuntimeError(error)
        }
    }
}
