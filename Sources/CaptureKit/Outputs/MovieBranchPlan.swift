/// The branch a movie is recorded in (``MovieFileOutput``'s, ``SegmentedMovieFileOutput``'s).
enum MovieBranchPlan {
    /// The video part from the video port's tee (`queue` `prefix_vqueue`, leaky, one second: the
    /// branch's own thread, taking H.264 from the source's shared encoded stage) and, when the
    /// session has a microphone, `queue` `prefix_aqueue` ! `audioconvert` ! `audioresample` !
    /// caps ! the container's audio encoder and parser from the audio port's tee, both into
    /// `muxer` (`video_%u`, `audio_%u`) ! `sink`. It ends with end of stream, so the muxer
    /// finishes the file.
    static func plan(_ branch: SessionGraph.Branch, graph: SessionGraph, container: MovieContainer, muxer mux: PipelinePlan.Element,
                     sink: PipelinePlan.Element) -> PipelinePlan.Branch {
        let key = branch.name
        let videoInput = graph.inputs[branch.input]
        let video: [PipelinePlan.Element] = [.leakyQueue(.vqueue, in: key)]
        var elements = video + [mux, sink]
        var links = PipelinePlan.Link.chain(video) + [.init(from: video[video.count - 1].name, to: "\(mux.name).video_%u"),
                                              .init(from: mux.name, to: sink.name)]
        var entries = [PipelinePlan.Branch.Entry(source: branch.stage ?? videoInput.name, element: video[0].name)]
        if let audioPort = branch.ports.first(where: { graph.inputs[$0.input].mediaType == .audio }) {
            let audio: [PipelinePlan.Element] = [
                .leakyQueue(.aqueue, in: key),
                .init("audioconvert", .aconvert, in: key),
                .init("audioresample", .aresample, in: key),
                .init("capsfilter", .acaps, in: key, [.init("caps", .caps(container.audioCaps))]),
            ] + container.audioEncoder(prefix: key)
            elements += audio
            links += PipelinePlan.Link.chain(audio) + [.init(from: audio[audio.count - 1].name, to: "\(mux.name).audio_%u")]
            entries.append(.init(source: graph.inputs[audioPort.input].name, element: audio[0].name))
        }
        return PipelinePlan.Branch(key: key, elements: elements, links: links, entries: entries, finishesWithEndOfStream: true)
    }
}
