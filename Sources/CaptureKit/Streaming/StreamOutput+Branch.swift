import Foundation
import GStreamerSwift

extension StreamOutput {
    /// What a target adds after the branch's H.264 (Annex B) and encoded audio: its elements,
    /// their links, the `element.pad` the video enters and the one audio enters (nil: the
    /// target takes no audio), and the pad that counts the bytes sent (element suffix and pad).
    struct Tail {
        var elements: [PipelinePlan.Element]
        var links: [PipelinePlan.Link]
        var video: String
        var audio: String?
        /// The container whose audio encoder the target takes: `.mp4` AAC, `.mkv` Opus.
        var audioCodec = MovieContainer.mp4
        var counter: (element: PipelinePlan.Role, pad: String)? = (element: .sink, pad: "sink")
    }

    /// The video part, named `prefix_…`: `queue` `prefix_queue` (leaky, one second: the
    /// branch's own thread; what it drops is counted) ! `h264parse` `prefix_parse` (SPS and PPS
    /// with every key frame, so a receiver that joins late decodes) ! Annex B caps
    /// `prefix_h264`. It takes H.264 from the source's encoded stage.
    func branch(prefix: String, source: SourceFormat) -> [PipelinePlan.Element] {
        [
            .leakyQueue(.queue, in: prefix),
            .init("h264parse", .parse, in: prefix, [.init("config-interval", -1)]),
            .init("capsfilter", .h264, in: prefix, [.init("caps", .caps("video/x-h264,stream-format=byte-stream,alignment=au"))]),
        ]
    }

    /// The whole branch: the video part from the encoded stage, the target's tail, and when the
    /// session has a microphone and the target takes audio, `queue` `prefix_aqueue` !
    /// `audioconvert` ! `audioresample` ! caps ! encoder ! parser `prefix_aparse` from the audio
    /// port's tee into the tail; and a WebRTC target's viewers while they play
    /// (``PipelinePlan/Branch/viewers``).
    func plan(_ branch: SessionGraph.Branch, graph: SessionGraph) -> PipelinePlan.Branch {
        let key = branch.name
        let videoInput = graph.inputs[branch.input]
        let video = self.branch(prefix: key, source: SourceFormat(videoInput))
        let tail = self.tail(prefix: key)
        var elements = video + tail.elements
        var links = PipelinePlan.Link.chain(video) + [.init(from: video[video.count - 1].name, to: tail.video)] + tail.links
        var entries = [PipelinePlan.Branch.Entry(source: branch.stage ?? videoInput.name, element: video[0].name)]
        if let audioTarget = tail.audio, let audioPort = branch.ports.first(where: { graph.inputs[$0.input].mediaType == .audio }) {
            let audio: [PipelinePlan.Element] = [
                .leakyQueue(.aqueue, in: key),
                .init("audioconvert", .aconvert, in: key),
                .init("audioresample", .aresample, in: key),
                .init("capsfilter", .acaps, in: key, [.init("caps", .caps(tail.audioCodec.audioCaps))]),
            ] + tail.audioCodec.audioEncoder(prefix: key)
            elements += audio
            links += PipelinePlan.Link.chain(audio) + [.init(from: audio[audio.count - 1].name, to: audioTarget)]
            entries.append(.init(source: graph.inputs[audioPort.input].name, element: audio[0].name))
        }
        var plan = PipelinePlan.Branch(key: key, elements: elements, links: links, entries: entries, finishesWithEndOfStream: false)
        // The WebRTC viewers of the running branch, as their endpoint made them.
        plan.viewers = state.withLock { $0.whep }.map { $0.prefix == key ? $0.plannedViewers : [] } ?? []
        return plan
    }

    /// The target's own elements.
    func tail(prefix key: String) -> Tail {
        switch target {
        case .srt(let srt): srtTail(prefix: key, srt)
        case .rtp(let host, let port): rtpTail(prefix: key, host: host, port: port)
        case .hls(let hls): hlsTail(prefix: key, hls)
        case .whep, .webRTC: whepTail(prefix: key)
        case .rtsp: rtspTail(prefix: key)
        case .rtspPublish(let url, _): rtspPublishTail(prefix: key, url: url)
        }
    }

    /// Counts what goes in and out and what is sent, and hooks up the target's own signals.
    func attach(_ branch: RunningBranch) throws(CaptureError) {
        let tail = self.tail(prefix: branch.prefix)
        try branch.pad(.queue, "sink").addBufferProbe { [weak self] buffer in
            self?.inFlight.withLock { $0.entered(buffer.presentationTime ?? 0) }
            return .pass
        }
        try branch.pad(.queue, "src").addBufferProbe { [weak self] buffer in
            self?.inFlight.withLock { $0.left(buffer.presentationTime ?? 0) }
            return .pass
        }
        try branch.pad(.parse, "src").addBufferProbe { [weak self] _ in
            self?.framesSent.add(1, ordering: .relaxed)
            return .pass
        }
        if let counter = tail.counter {
            try branch.pad(counter.element, counter.pad).addByteCountProbe { [weak self] bytes in self?.sent(bytes: bytes) }
        }
        try attachTarget(branch)
        state.withLock { state in
            state.status = .streaming
            state.attachedAt = DispatchTime.now().uptimeNanoseconds
            if target.reconnects || !target.servesClients { state.statistics.clients = 1 }
        }
    }

    /// Counts bytes handed to the network or the disk; on the streaming thread that sent them.
    /// Counts bytes handed on, on the streaming thread that hands them (no lock).
    func sent(bytes: Int) {
        bytesSent.add(Int64(bytes), ordering: .relaxed)
    }

    /// Target-specific hooks: SRT's caller count, RTP's session description, the RTSP server,
    /// a publisher's credentials, WHEP's server.
    func attachTarget(_ branch: RunningBranch) throws(CaptureError) {
        switch target {
        case .srt: try attachSRT(branch)
        case .rtp: try attachRTP(branch)
        case .hls(let hls): try hls.createDirectory()
        case .whep, .webRTC: try attachWHEP(branch)
        case .rtsp: try attachRTSP(branch)
        case .rtspPublish: try attachRTSPPublish(branch)
        }
    }
}

extension StreamTarget {
    /// Whether viewers play the stream over WebRTC (WHEP, or the app's own signalling).
    var isWebRTC: Bool {
        switch self {
        case .whep, .webRTC: true
        default: false
        }
    }

    /// Whether receivers connect to the output (a server), rather than it sending to one.
    var servesClients: Bool {
        switch self {
        case .rtsp, .whep, .webRTC: true
        case .srt(let srt): srt.mode == .listener
        case .rtp, .hls, .rtspPublish: false
        }
    }

    /// Throws for a port outside 1…65535, a server path without its leading `/`, or HLS
    /// settings out of range: what the URL forms rule out, for targets built in code.
    func validate() throws(CaptureError) {
        func port(_ port: Int) throws(CaptureError) {
            guard (1...65535).contains(port) else { throw .invalidSetting(name: "port", value: "\(port)", valid: "1…65535") }
        }
        func path(_ path: String) throws(CaptureError) {
            guard path.hasPrefix("/"), path.count > 1 else { throw .invalidSetting(name: "server path", value: path, valid: "a path such as /cam") }
        }
        switch self {
        case .rtsp(_, let number, let text, _), .whep(_, let number, let text):
            try port(number)
            try path(text)
        case .rtp(_, let number):
            try port(number)
        case .srt(let srt):
            try port(srt.port)
            if let passphrase = srt.passphrase, !(10...79).contains(passphrase.count) {
                throw .invalidSetting(name: "SRT passphrase", value: "\(passphrase.count) characters", valid: "10…79 characters")
            }
        default:
            break
        }
        switch self {
        case .hls(let hls):
            guard (1...60).contains(hls.segmentDuration) else {
                throw .invalidSetting(name: "HLS segment duration", value: "\(hls.segmentDuration) s", valid: "1…60 s")
            }
            guard (1...100).contains(hls.playlistLength) else {
                throw .invalidSetting(name: "HLS playlist length", value: "\(hls.playlistLength) segments", valid: "1…100 segments")
            }
        case .srt, .rtp, .rtsp, .rtspPublish, .whep, .webRTC:
            break
        }
    }
}
