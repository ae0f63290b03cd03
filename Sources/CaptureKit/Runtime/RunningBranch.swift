import GStreamerSwift

/// An output's branch as its output sees it when attaching: the branch's bin, to find its
/// elements, the pipeline, for its clock, and the connection it serves.
///
/// An output may keep it while attached; probes and callbacks must not capture it (nor the
/// output strongly): the pipeline holds them, and that cycle would keep a stopped pipeline alive.
struct RunningBranch: Sendable {
    let prefix: String
    let bin: Bin
    let pipeline: Pipeline
    /// The connection the branch serves now; read it when delivering, it changes on a camera switch.
    let slot: ConnectionSlot

    /// The connection the branch serves at this moment.
    var connection: CaptureConnection { slot.connection }

    /// The branch's element with `role`, as the output's plan made it.
    func element(_ role: PipelinePlan.Role) throws(CaptureError) -> Element {
        do {
            return try bin.element(role, in: prefix)
        } catch {
            throw .pipelineFailed(error, element: role.name(in: prefix))
        }
    }

    /// A static pad of a branch element.
    func pad(_ role: PipelinePlan.Role, _ pad: String) throws(CaptureError) -> Pad {
        let element = try element(role)
        do {
            return try element.staticPad(pad)
        } catch {
            throw .pipelineFailed(error, element: element.name)
        }
    }

    /// The pipeline's running time now, in nanoseconds (0 before it runs).
    var runningTime: UInt64 { pipeline.runningTime ?? 0 }
}
