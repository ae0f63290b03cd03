import GStreamerSwift

/// An output's branch in a running pipeline, handed to the output to attach its callbacks.
struct RunningBranch: Sendable {
    let prefix: String
    let pipeline: Pipeline
    let connection: CaptureConnection

    /// The branch's element `prefix_suffix`.
    func element(_ suffix: String) throws(CaptureError) -> Element {
        do {
            return try pipeline.element(named: "\(prefix)_\(suffix)")
        } catch {
            throw .pipelineFailed(element: "\(prefix)_\(suffix)", message: error.description)
        }
    }

    /// A static pad of a branch element.
    func pad(_ suffix: String, _ pad: String) throws(CaptureError) -> Pad {
        do {
            return try element(suffix).staticPad(pad)
        } catch let error as GStreamerError {
            throw .pipelineFailed(element: "\(prefix)_\(suffix)", message: error.description)
        } catch let error as CaptureError {
            throw error
        } catch {
            throw .pipelineFailed(element: nil, message: "\(error)")
        }
    }

    /// The pipeline's running time now, in nanoseconds (0 before it runs).
    var runningTime: UInt64 { pipeline.runningTime ?? 0 }
}
