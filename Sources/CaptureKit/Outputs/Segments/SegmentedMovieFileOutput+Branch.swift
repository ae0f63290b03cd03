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
        recording.stage.withLock { $0 = branch.stage }
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
        try askKeyFrames(recording, branch: branch)
        try branch.pad(.vqueue, "sink").addBufferProbe { buffer in
            guard let time = buffer.runningTime else { return .drop }
            return recording.admitVideo(runningTime: time, isKeyFrame: !buffer.isDeltaUnit) ? .pass : .drop
        }
        if let audio = try? branch.pad(.aqueue, "src") {
            audio.addBufferProbe { buffer in
                guard let time = buffer.runningTime else { return .drop }
                return recording.admitAudio(runningTime: time, duration: buffer.duration ?? 0) ? .pass : .drop
            }
        }
        let writer = recording.writer, keeps = recording.keepsBuffers
        try branch.pad(.sink, "sink").addBufferProbe { buffer in
            let kept = keeps ? buffer.retained() : nil
            let keyUnit = !buffer.isDeltaUnit
            _ = try? buffer.withBytes { writer.write($0, keyUnit: keyUnit, retained: kept) }
            return .drop
        }
        recording.progress.withLock { $0.attached = true }
    }

    /// Asks the shared encoder for a key frame at each boundary: a probe on the encoder's sink
    /// pad sends an immediate key-frame request, from downstream, just before the first frame
    /// at or past the boundary goes in, so that frame is the key frame.
    ///
    /// Requests naming a running time ahead were tried first: GStreamer 1.22's encoders that
    /// shift their output times (x264enc, by 1000 hours) measure the first frame's running time
    /// in the shifted times, and then ignore every timed request as long past. The segments
    /// followed the encoder's own key-frame interval (2 s segments for 1 s asked, at 1080p).
    private func askKeyFrames(_ recording: SegmentedRecording, branch: RunningBranch) throws(CaptureError) {
        guard let stage = recording.stage.withLock({ $0 }) else {
            throw .pipelineFailed(element: branch.prefix, message: "the segmented output's branch has no encoded stage")
        }
        let encoderSink: Pad, parserSink: Pad
        do {
            encoderSink = try branch.pipeline.element(named: PipelinePlan.Role.enc.name(in: stage)).staticPad("sink")
            parserSink = try branch.pipeline.element(named: PipelinePlan.Role.parse.name(in: stage)).staticPad("sink")
        } catch {
            throw .pipelineFailed(error, element: PipelinePlan.Role.enc.name(in: stage))
        }
        let id = encoderSink.addBufferProbe { buffer in
            if let time = buffer.runningTime, recording.keyFrameDue(runningTime: time) { _ = parserSink.push(.forceKeyUnit()) }
            return .pass
        }
        recording.encoderProbe.withLock { $0 = (encoderSink, id) }
    }

    /// The branch is gone (stopped, failed, or the session stopped): the open segment is closed.
    func detach(error: CaptureError) {
        guard let recording = state.withLock({ $0.recording }) else { return }
        let stopping = state.withLock { $0.stopping }
        finish(recording, error: error.code == .captureCancelled && stopping ? nil : error)
    }
}
