import Foundation
import GStreamerSwift

extension MovieFileOutput {
    /// The video part of the branch, named `prefix_…`: `queue` `prefix_vqueue` (leaky, one
    /// second: the branch's own thread; what it drops is counted). It takes H.264 from the
    /// source's encoded stage, shared with any other output encoding with the same settings.
    func branch(prefix: String, source: SourceFormat) -> [PipelinePlan.Element] {
        [.leakyQueue(.vqueue, in: prefix)]
    }

    /// While recording, the recording's codec settings: the session gives the video an encoded
    /// stage with them.
    var videoEncoding: VideoCodecSettings? { state.withLock { $0.recording?.settings.codec } }

    /// The whole branch while recording (``MovieBranchPlan``), into a `filesink` `prefix_sink`
    /// (unbuffered, not synchronised); the video queue alone when not recording.
    func plan(_ branch: SessionGraph.Branch, graph: SessionGraph) -> PipelinePlan.Branch {
        let key = branch.name
        guard let recording = state.withLock({ $0.recording }) else {
            return .init(key: key, chain: self.branch(prefix: key, source: SourceFormat(graph.inputs[branch.input])), source: graph.inputs[branch.input].name)
        }
        let container = recording.settings.container
        let sink = PipelinePlan.Element("filesink", .sink, in: key, [
            .init("location", .string(recording.settings.url.path)), .init("buffer-mode", .nick("unbuffered")), .init("sync", false), .init("async", false),
        ])
        return MovieBranchPlan.plan(branch, graph: graph, container: container,
                                    muxer: container.muxer(prefix: key, fragmentInterval: recording.settings.fragmentInterval), sink: sink)
    }

    /// Hooks the recording's probes onto its branch: the start gate and duration limit at the
    /// entries, the encoded sizes after the parsers, the bytes and fragments before the sink.
    func attach(_ branch: RunningBranch) throws(CaptureError) {
        guard let recording = state.withLock({ $0.recording }), recording.progress.withLock({ !$0.finished && !$0.attached }) else {
            throw .pipelineFailed(element: branch.prefix, message: "the movie output is not recording")
        }
        try branch.pad(.vqueue, "sink").addProbe(.eventDownstream) { _, data in
            guard case .event(.caps(let caps)) = data else { return .ok }
            return recording.videoCapsChanged(to: caps) ? .drop : .ok
        }
        try branch.pad(.vqueue, "sink").addBufferProbe { buffer in
            guard let time = buffer.runningTime else { return .drop }
            return recording.admitVideo(runningTime: time, presentationTime: buffer.presentationTime ?? 0, isKeyFrame: !buffer.isDeltaUnit)
                ? .pass : .drop
        }
        recording.pads.withLock { $0 = (try? branch.pad(.vqueue, "sink"), [try? branch.pad(.vqueue, "src"), try? branch.pad(.aqueue, "src")].compactMap { $0 }) }
        try branch.pad(.vqueue, "src").addBufferProbe { buffer in
            recording.encodedVideo(presentationTime: buffer.presentationTime ?? 0, duration: buffer.duration ?? 0, bytes: buffer.size)
            return .pass
        }
        if let audio = try? branch.pad(.aqueue, "src") {
            recording.progress.withLock { $0.hasAudio = true }
            // Judged as it leaves the branch's queue, on the branch's own thread: audio that
            // came before the file's zero was known waits for it (a bounded wait, never on the
            // microphone's thread).
            audio.addBufferProbe { buffer in
                guard let time = buffer.runningTime else { return .drop }
                recording.awaitVideoStart(timeout: .milliseconds(500))
                return recording.admitAudio(runningTime: time, duration: buffer.duration ?? 0) ? .pass : .drop
            }
            try branch.pad(.aparse, "src").addBufferProbe { buffer in
                recording.encodedAudio(bytes: buffer.size)
                return .pass
            }
        }
        let matrix = recording.settings.displayMatrix
        try branch.pad(.sink, "sink").addBufferProbe { buffer in
            if let matrix, buffer.holds(Self.moov, at: 4) {
                _ = try? buffer.withWritableBytes { matrix.write(intoMovieHeader: $0) }
            }
            recording.wrote(bytes: buffer.size, fragmentEnds: buffer.holds(Self.moof, at: 4))
            return .pass
        }
        recording.progress.withLock { $0.attached = true }
    }

    /// The branch is gone and its file closed: did-finish, with the reason it ended.
    func detach(error: CaptureError) {
        guard let recording = state.withLock({ $0.recording }) else { return }
        let stopping = state.withLock { $0.stopping }
        let url = recording.settings.url
        let reason: CaptureError? = switch error.code {
        case .captureCancelled where stopping: nil
        case .sessionStopped: .sessionStopped
        case .diskFull: .diskFull(url, freeBytes: Recording.freeBytes(at: url), limit: 0, finished: false)
        case .captureCancelled: .recordingFailed(url, error: .pipelineFailed(element: "movie", message: "the recording's inputs changed"),
                                                 usable: recording.settings.container.fragments)
        default: .recordingFailed(url, error: error, usable: recording.settings.container.fragments)
        }
        finish(recording, error: reason)
    }

    /// `moof`: the box that closes a fragment; `moov`: the movie header (the first fragment's,
    /// and the final index).
    static let moof = Array("moof".utf8), moov = Array("moov".utf8)
}
