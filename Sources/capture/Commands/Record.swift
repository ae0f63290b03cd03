import ArgumentParser
import CaptureFiles
import CaptureKit
import Foundation

/// `capture record`: a movie from a camera, and a microphone when asked, until a limit or a signal.
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a movie (H.264; AAC or Opus audio with --audio) and print the path written.",
        discussion: """
            Records until --duration or --max-size is reached, or until interrupted (Ctrl-C, \
            SIGINT or SIGTERM): each finishes the file and exits 0, a limit saying which on \
            standard error. Video only unless --audio names a microphone. The extension chooses \
            the container: .mp4 or .mov (H.264 and AAC) or .mkv (H.264 and Opus). On a terminal \
            a progress line (elapsed, size, frame rate, dropped frames, encoder) is kept on \
            standard error; standard output gets only the path written. A full disk exits 1 and \
            leaves the file, playable up to its last fragment. A signal while an .mp4 or .mov is \
            given its index leaves it in its fragments, playable, with a warning. A folder that \
            cannot take the file is refused before the camera starts.

            With -o a folder (DIR/) or a strftime pattern, or with --segment, it records \
            continuously in segments of --segment seconds (default 60): complete MP4 files \
            (MOV or MKV with a pattern's .mov or .mkv) named by the UTC time of their first \
            frame, cut at key frames so that each frame is in exactly one file and the times \
            run on from file to file, listed in the folder's index.json. Each closed segment's path is printed as it closes.

            With --on, events (a trigger, with --pre seconds before and --post after) are \
            written as clips to -o's clips/; with --segment they are marked in index.json \
            instead (both with --clips).
            """
    )

    @Option(name: .shortAndLong, help: .device)
    var device = "default"

    @Option(help: "A microphone: a uniqueID, an index from 'capture devices', 'default', 'virtual' (the virtual microphone) or 'none'.")
    var audio = "none"

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Where to write the movie: .mp4, .mov or .mkv; or a folder (DIR/) or strftime pattern (DIR/%Y-%m-%d/%H-%M-%S.mp4) for segments.",
        valueName: "path"))
    var output = "movie.mp4"

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Record continuously in segments of this many seconds (1 to 86400; default 60 when -o is a folder or pattern).", valueName: "seconds"),
            transform: Seconds.positive)
    var segment: Double?

    @OptionGroup var retention: RetentionArguments

    @OptionGroup var eventOptions: EventArguments

    @OptionGroup var overlayOptions: OverlayArguments

    @Flag(help: "With --on and --segment: write each event's clip as well as marking it in the index.")
    var clips = false

    @Flag(help: "With --on: print each event's start and end as JSON lines on standard output (instead of the closed files' paths).")
    var events = false

    @Option(help: ArgumentHelp("With --on: POST each event's start and end (the --events JSON) to this http(s) URL, retrying with back-off; a dead receiver never holds up the recording.",
                               valueName: "url"),
            transform: { text throws(ValidationError) in
                guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
                    throw ValidationError("--webhook '\(text)' is not an http:// or https:// URL with a host")
                }
                return url
            })
    var webhook: URL?

    @Option(parsing: .unconditional, help: "Stop after this many seconds (greater than 0, at most 365 days).", transform: Seconds.positive)
    var duration: Double?

    @Option(name: .customLong("max-size"),
            help: ArgumentHelp("Stop before the file grows past this size: bytes, or with K, M, G (1000s) or Ki, Mi, Gi (1024s), e.g. 50M.",
                               valueName: "size"))
    var maxSize: ByteCount?

    @Option(parsing: .unconditional, help: "Seconds between the fragments written while recording .mp4 or .mov (default 10; 0 writes none).",
            transform: Seconds.zeroOrMore)
    var fragment: Double?

    @Option(help: "The video codec (h264).")
    var codec: VideoCodecType = .h264

    @Option(parsing: .unconditional, help: "Average video bit rate in kbit/s (default: about a tenth of a bit per pixel per frame).")
    var bitrate: Int?

    @Option(help: "Session preset, e.g. high, vga640x480, hd1280x720.")
    var preset: SessionPreset = .high

    @Option(help: "portrait | portraitUpsideDown | landscapeLeft | landscapeRight (stored as the movie's rotation).")
    var orientation: VideoOrientation?

    @Flag(help: "Mark the movie as mirrored.")
    var mirrored = false

    @Flag(help: "Overwrite the output file if it exists.")
    var force = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        try overlayOptions.checkUsage()
        if isSegmented { return try validateSegments() }
        let segmentOnly = [("--keep", retention.keep != nil), ("--max-disk", retention.maxDisk != nil), ("--pre", eventOptions.pre != nil), ("--post", eventOptions.post != nil), ("--clips", clips),
                           ("--events", events)]
        for (flag, given) in segmentOnly where given {
            throw ValidationError("\(flag) applies to segments and events: give -o a folder (-o recordings/) with --segment or --on")
        }
        try OutputFile.checkUsage(output, option: "-o", example: "movie.mp4")
        if let bitrate, bitrate <= 0 {
            throw ValidationError("--bitrate \(bitrate) must be a number of kbit/s greater than 0")
        }
    }

    func run() async throws {
        global.bootstrapLogging()
        if isSegmented { return try await runSegmented() }
        let url = URL(fileURLWithPath: output)
        try preflight(url)
        let session = CaptureSession()
        let movie = MovieFileOutput()
        try configure(session, movie)
        let encoder = movie.videoEncoderName ?? "no H.264 encoder"
        if global.verbose { Self.note("encoder: \(encoder)") }

        let trap = InterruptTrap()
        try await session.checked.startRunning()
        if trap.interrupted {
            await session.checked.stopRunning()
            throw RuntimeFailure(message: "interrupted before the recording started; nothing was written")
        }
        let events = RecordingEvents()
        movie.startRecording(to: url, recordingDelegate: events)
        trap.stops(movie)
        let progress = FileHandle.standardError.isTerminal
            ? Task { await Self.showProgress(of: movie, line: ProgressLine(file: url.lastPathComponent, encoder: encoder)) }
            : nil
        var ending: CaptureError?
        for await event in events.events {
            switch event {
            case .started:
                if global.verbose { Self.note("pipeline: \(session.pipelineDescription)") }
            case .finished(let error):
                ending = error
            }
        }
        progress?.cancel()
        await progress?.value
        await session.checked.stopRunning()
        withExtendedLifetime(trap) {}
        try report(ending, url: url)
        print(url.path)
    }

    /// The session: the camera, the microphone when asked, and the movie output with the limits
    /// and encoding asked for.
    private func configure(_ session: CaptureSession, _ movie: MovieFileOutput) throws {
        let camera = try CaptureDevice.find(device)
        try session.setSessionPreset(preset)
        try session.checked.addInput(CaptureDeviceInput(device: camera))
        if audio != "none" {
            try session.checked.addInput(CaptureDeviceInput(device: try Self.microphone(audio)))
        }
        movie.setLimits(maxDuration: duration, maxSize: maxSize, fragmentInterval: fragment)
        try session.checked.addOutput(movie)
        guard let connection = movie.connection(with: .video) else {
            throw RuntimeFailure(message: "no video connection to \(camera.uniqueID)")
        }
        if let orientation { connection.videoOrientation = orientation }
        if mirrored { connection.isVideoMirrored = true }
        try movie.setOutputSettings(VideoCodecSettings(codec: codec, bitrate: bitrate.map { $0 * 1000 }, overlay: overlayOptions.videoOverlay), for: connection)
    }

    /// Exit 0 for a recording stopped by a signal or a limit (saying which limit), the error
    /// otherwise (a full disk says the file was kept). A file left in fragments is a warning.
    private func report(_ ending: CaptureError?, url: URL) throws {
        guard let ending else { return }
        switch ending.code {
        case .movieNotFinalized:
            Self.note("warning: \(ending.message)")
            try report(ending.underlyingError as? CaptureError, url: url)
        case .maximumDurationReached:
            Self.note("stopped: reached --duration \(Self.number(duration ?? 0)) s")
        case .maximumFileSizeReached:
            Self.note("stopped: reached --max-size \(maxSize.map { "\($0) (\($0.bytes) bytes)" } ?? "")")
        case .fileAlreadyExists:
            throw Self.refusal(ending)
        case .diskFull:
            throw RuntimeFailure(message: "\(ending.message); the file \(url.path) was kept, playable up to its last fragment")
        default:
            throw ending
        }
    }

    /// A refusal to overwrite a file, saying how to.
    static func refusal(_ error: CaptureError) -> RuntimeFailure {
        RuntimeFailure(message: "\(error.message), or pass --force to replace it")
    }

    /// `--audio` names a microphone: `virtual` is the virtual one, `default` the system's,
    /// anything else what `CaptureDevice.find` finds, which must be a microphone.
    static func microphone(_ reference: String) throws -> CaptureDevice {
        let device: CaptureDevice
        switch reference {
        case "default":
            guard let found = CaptureDevice.default(for: .audio) else { throw RuntimeFailure(message: "no microphone found; see 'capture devices'") }
            device = found
        case "virtual", "virtual-mic":
            device = try CaptureDevice.find("virtual:microphone")
        default:
            device = try CaptureDevice.find(reference)
        }
        guard device.hasMediaType(.audio) else {
            let microphones = CaptureDevice.devices().enumerated().filter { $0.element.hasMediaType(.audio) }
            throw RuntimeFailure(message: "--audio \(reference) is \(device.uniqueID), not a microphone; microphones: "
                + microphones.map { "\($0.offset): \($0.element.uniqueID)" }.joined(separator: ", ") + ", or 'none'")
        }
        return device
    }

    /// Refuses before the camera starts what the recording would refuse once it had: an
    /// extension no container is made for, an existing file unless --force, which removes it
    /// (a file, not a directory), and a folder that takes no file (missing, not a folder, not
    /// writable, read-only).
    private func preflight(_ url: URL) throws {
        guard MovieFileOutput.supportedFileExtensions.contains(url.pathExtension.lowercased()) else {
            throw CaptureError.unsupportedFileType(url, supported: MovieFileOutput.supportedFileExtensions)
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard force else { throw Self.refusal(.fileAlreadyExists(url)) }
            guard !isDirectory.boolValue else { throw RuntimeFailure(message: "'\(url.path)' is a directory; --force only replaces files") }
            do {
                try FileManager.default.removeItem(at: url)
            } catch {
                throw RuntimeFailure(message: "cannot replace \(url.path): \(error.localizedDescription)")
            }
        }
        try OutputFolder.check(url)
    }

    /// Rewrites the progress line about twice a second until cancelled, then clears it.
    static func showProgress(of movie: MovieFileOutput, line: ProgressLine) async {
        while !Task.isCancelled {
            ProgressLine.show(line.text(for: movie))
            try? await Task.sleep(for: .milliseconds(500))
        }
        ProgressLine.clear()
    }

    /// A line on standard error, over the progress line on a terminal (which the next update redraws).
    static func note(_ text: String) {
        let clear = FileHandle.standardError.isTerminal ? "\r\u{1B}[K" : ""
        FileHandle.standardError.write(Data((clear + text + "\n").utf8))
    }

    /// `2.0` → `2`, `1.5` → `1.5`.
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

extension VideoCodecType: ExpressibleByArgument {}

extension FileHandle {
    /// Whether the handle is a terminal (where a progress line can be rewritten in place).
    var isTerminal: Bool { isatty(fileDescriptor) == 1 }
}
