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
        let element = try element(suffix)
        do {
            return try element.staticPad(pad)
        } catch {
            throw .pipelineFailed(element: element.name, message: error.description)
        }
    }

    /// The pipeline's running time now, in nanoseconds (0 before it runs).
    var runningTime: UInt64 { pipeline.runningTime ?? 0 }
}
