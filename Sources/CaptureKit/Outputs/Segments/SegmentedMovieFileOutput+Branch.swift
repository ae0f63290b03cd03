import Foundation
import GStreamerSwift

extension SegmentedMovieFileOutput {
    /// The video queue alone (when not recording).
    func branch(prefix: String, source: SourceFormat) -> [PipelinePlan.Element] {
        [.leakyQueue(.vqueue, in: prefix)]
    }

    /// While recording, ``MovieBranchPlan``'s branch with a muxer writing fragments only
    /// (`streamable`), into a `fakesink` `prefix_sink` whose pad hands each buffer to the
    /// recording's ``SegmentWriter``.
    func plan(_ branch: SessionGraph.Branch, graph: SessionGraph) -> PipelinePlan.Branch {
        let key = branch.name
        guard let recording = state.withLock({ $0.recording }) else {
            return .init(key: key, chain: self.branch(prefix: key, source: SourceFormat(graph.inputs[branch.input])), source: graph.inputs[branch.input].name)
        }
        let container = recording.naming.container
        let sink = PipelinePlan.Element("fakesink", .sink, in: key, [.init("sync", false), .init("async", false)])
        return MovieBranchPlan.plan(branch, graph: graph, container: container,
                                    muxer: container.muxer(prefix: key, fragmentInterval: recording.fragmentInterval, streamable: true), sink: sink)
    }

    /// Hooks the recording's probes onto its branch: admission and key-frame requests at the
    /// video entry, audio admission after its queue, the writer at the sink.
    func attach(_ branch: RunningBranch) throws(CaptureError) {
        guard let recording = state.withLock({ $0.recording }), recording.progress.withLock({ !$0.finished && !$0.attached }) else {
            throw .pipelineFailed(element: branch.prefix, message: "the segmented output is not recording")
        }
        let entry = try branch.pad(.vqueue, "sink")
        recording.entry.withLock { $0 = entry }
        entry.addBufferProbe { buffer in
            guard let time = buffer.runningTime else { return .drop }
            return recording.admitVideo(runningTime: time, isKeyFrame: !buffer.isDeltaUnit) ? .pass : .drop
        }
        if let audio = try? branch.pad(.aqueue, "src") {
            audio.addBufferProbe { buffer in
                guard let time = buffer.runningTime else { return .drop }
                return recording.admitAudio(runningTime: time, duration: buffer.duration ?? 0) ? .pass : .drop
            }
        }
        let writer = recording.writer
        try branch.pad(.sink, "sink").addBufferProbe { buffer in
            _ = try? buffer.withBytes { writer.write($0) }
            return .drop
        }
        recording.progress.withLock { $0.attached = true }
    }

    /// The branch is gone (stopped, failed, or the session stopped): the open segment is closed.
    func detach(error: CaptureError) {
        guard let recording = state.withLock({ $0.recording }) else { return }
        let stopping = state.withLock { $0.stopping }
        finish(recording, error: error.code == .captureCancelled && stopping ? nil : error)
    }
}
