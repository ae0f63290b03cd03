import ArgumentParser
import CaptureKit
import Foundation
import Synchronization

/// `capture stream`: one camera, encoded once, sent to every target at the same time.
struct Stream: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Stream a camera (H.264, encoded once) to RTSP, SRT, RTP, HLS and WHEP targets at once.",
        discussion: """
            TARGET is one of:
              rtsp://HOST:PORT/PATH        serve RTSP there (TCP and UDP; --user/--password ask for credentials)
              publish:rtsp://HOST:PORT/PATH  publish to an RTSP server that records (ANNOUNCE/RECORD)
              srt://:PORT                  an SRT listener: receivers call in (MPEG-TS)
              srt://HOST:PORT              an SRT caller: push to a listening receiver or ingest
              rtp://HOST:PORT              RTP over UDP; the SDP is printed, or written with --sdp
              hls:DIR                      a live HLS playlist, DIR/playlist.m3u8, with its segments
              whep://HOST:PORT/PATH        a WHEP endpoint for browsers at http://HOST:PORT/PATH
            SRT takes ?latency=MS (default 120) and ?passphrase=. Servers listen on loopback \
            unless --listen (or a host in the URL) says otherwise. Callers and publishers call \
            again with back-off when their peer goes away; a client that leaves or fails never \
            stops the others. Runs until --duration or Ctrl-C (SIGINT/SIGTERM), then exits 0. On \
            a terminal a progress line (clients, bit rate, frame rate, dropped frames) is kept on \
            standard error; at the end a line per target on standard output says what it sent.
            """
    )

    @Option(name: .shortAndLong, help: .device)
    var device = "default"

    @Option(help: "A microphone: a uniqueID, an index from 'capture devices', 'default', 'virtual' or 'none'.")
    var audio = "none"

    @Option(help: "Session preset, e.g. high, vga640x480, hd1280x720.")
    var preset: SessionPreset = .high

    @Option(parsing: .unconditional, help: "Average video bit rate in kbit/s (default: about a tenth of a bit per pixel per frame).")
    var bitrate: Int?

    @Option(name: .customLong("keyframe-interval"), help: "Most frames between key frames (default: two seconds of frames).")
    var keyFrameInterval: Int?

    @Option(parsing: .unconditional, help: "Stop after this many seconds (greater than 0, at most 365 days).", transform: Seconds.positive)
    var duration: Double?

    @Option(help: "The address servers bind when a target's URL names no host (default 127.0.0.1; 0.0.0.0 for every interface).")
    var listen: String?

    @Option(help: "A user name RTSP clients must give (with --password), or to publish with.")
    var user: String?

    @Option(help: "The password for --user.")
    var password: String?

    @Option(help: "Write an rtp:// target's SDP to this file (else it is printed on standard output).")
    var sdp: String?

    @Flag(help: "Replace the --sdp file if it exists.")
    var force = false

    @Argument(help: "Where to stream: see above.")
    var targets: [String] = []

    @OptionGroup var overlayOptions: OverlayArguments

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        try overlayOptions.checkUsage()
        guard !targets.isEmpty else {
            throw ValidationError("name at least one TARGET: \(StreamTarget.acceptedForms.joined(separator: ", "))")
        }
        if let bitrate, bitrate <= 0 {
            throw ValidationError("--bitrate \(bitrate) must be a number of kbit/s greater than 0")
        }
        if (user == nil) != (password == nil) {
            throw ValidationError("--user and --password go together")
        }
        if let sdp { try OutputFile.checkUsage(sdp, option: "--sdp", example: "stream.sdp") }
        do {
            let parsed = try parsedTargets()
            if sdp != nil, !parsed.contains(where: { if case .rtp = $0 { true } else { false } }) {
                throw ValidationError("--sdp describes an rtp:// target; none was named")
            }
        } catch let error as CaptureError {
            throw ValidationError(error.message)
        }
    }

    /// The targets, with --user/--password given to those that take credentials.
    func parsedTargets() throws -> [StreamTarget] {
        let credentials = user.map { StreamCredentials(user: $0, password: password ?? "") }
        return try targets.map { text in
            switch try StreamTarget(parsing: text, listen: listen) {
            case .rtsp(let host, let port, let path, let given): .rtsp(host: host, port: port, path: path, credentials: given ?? credentials)
            case .rtspPublish(let url, let given): .rtspPublish(url: url, credentials: given ?? credentials)
            case let other: other
            }
        }
    }

    func run() async throws {
        global.bootstrapLogging()
        if let sdp { try OutputFile.checkReplacing(sdp, force: force) }
        let settings = VideoCodecSettings(codec: .h264, bitrate: bitrate.map { $0 * 1000 }, keyFrameInterval: keyFrameInterval,
                                          overlay: overlayOptions.videoOverlay)
        let outputs = try parsedTargets().map { target throws(CaptureError) in try StreamOutput(target: target, videoSettings: settings) }
        let session = CaptureSession()
        try session.setSessionPreset(preset)
        try session.checked.addInput(CaptureDeviceInput(device: try CaptureDevice.find(device)))
        if audio != "none" {
            try session.checked.addInput(CaptureDeviceInput(device: try Record.microphone(audio)))
        }
        for output in outputs { try session.checked.addOutput(output) }

        let trap = InterruptTrap()
        let stop = StopSignal()
        trap.onInterrupt { stop.fire() }
        try await session.checked.startRunning()
        if global.verbose { Record.note("pipeline: \(session.pipelineDescription)") }
        for output in outputs { Record.note("streaming to \(output.target.description)\(Self.howToPlay(output.target))") }
        let report = StreamReport(outputs: outputs)
        if let duration { stop.fire(after: duration) }
        await report.watch(until: stop, sdpFile: sdp, terminal: FileHandle.standardError.isTerminal)
        await session.checked.stopRunning()
        withExtendedLifetime(trap) {}
        for line in report.summary() { print(line) }
        if let failure = report.failure() { throw failure }
    }

    /// What a client opens, for targets where it differs from the target's own text.
    static func howToPlay(_ target: StreamTarget) -> String {
        switch target {
        case .whep: " (POST an SDP offer to http\(target.description.dropFirst(4)))"
        case .srt(let srt) where srt.mode == .listener: " (receivers call srt://\(srt.host):\(srt.port)?mode=caller)"
        case .hls(let hls): " (playlist \(hls.playlistURL.path))"
        default: ""
        }
    }
}
