import GStreamerSwift

extension VideoPreview {
    var wantsBranch: Bool { sink != .none }

    func branch(prefix: String, source: SourceFormat) -> [PipelinePlan.Element] {
        [
            .init("queue", name: "\(prefix)_queue", [.init("leaky", "downstream"), .init("max-size-buffers", "2")]),
            .init("fakesink", name: "\(prefix)_sink", [.init("sync", "false")]),
        ]
    }

    func attach(_ branch: RunningBranch) throws(CaptureError) {}

    func detach(error: CaptureError) {}
}
