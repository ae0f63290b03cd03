import CaptureKit

/// Why running a pipeline file's session failed.
///
/// A run never hangs: when the stopping condition is not met within the run's timeout it ends
/// with ``timedOut(after:waitingFor:)``, naming what it was still waiting for. Whatever the
/// failure, the session has been stopped when the error is thrown.
public enum PipelineRunError: Error, Sendable, Equatable, CustomStringConvertible {
    /// CaptureKit failed; `during` says what the run was doing, such as `starting the session`,
    /// `still output 'snap'` or `the running pipeline`.
    case capture(CaptureError, during: String)
    /// The run did not finish within `after`; `waitingFor` describes each output that had not
    /// reached its goal, such as `videoData output 'frames': 12 of 30 frames`.
    case timedOut(after: Duration, waitingFor: [String])
    /// A still or frame could not be written to `path`.
    case writeFailed(path: String, reason: String)
    /// A path the file writes leads out of the run's folder, or names a file that exists when
    /// replacing files was not asked for; the run did not start. The error is located at the
    /// path in the file (see ``PipelineFile/checkOutputPaths(in:replacingExistingFiles:)``).
    case unsafePath(PipelineFileError)
    /// The task running the session was cancelled.
    case cancelled

    /// A one-line description of the failure and what to check.
    public var description: String {
        switch self {
        case .capture(let error, let during):
            return "capture failed during \(during): \(error)"
        case .timedOut(let limit, let waiting):
            let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
            return "run timed out after \(PipelineRunReport.secondsText(seconds)) s waiting for "
                + (waiting.isEmpty ? "the session to finish" : waiting.joined(separator: "; "))
                + "; check that the device delivers frames (is the format's frame rate what you expect?)"
        case .writeFailed(let path, let reason):
            return "cannot write '\(path)': \(reason)"
        case .unsafePath(let error):
            return error.description
        case .cancelled:
            return "the run was cancelled"
        }
    }
}
