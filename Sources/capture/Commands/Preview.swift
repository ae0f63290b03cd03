import ArgumentParser
import CaptureKit
import Foundation

/// `capture preview`: a camera in a window, with the codes and faces it sees outlined.
struct Preview: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Show a camera in a window; with --scan, outline the codes and faces it sees.",
        discussion: """
            The window is the first of glimagesink, xvimagesink, ximagesink and waylandsink that \
            opens the display (--sink kms shows on a board's display without a desktop); which \
            one is said on standard error. The picture is turned for --orientation, mirrored with \
            --mirrored and fitted to --size by --gravity. With --scan, each code is outlined with \
            its string and each face boxed, placed with VideoPreview's geometry. Closing the \
            window, Ctrl-C (SIGINT/SIGTERM) or --duration ends it with exit 0; exit 1 when no \
            window can open.
            """
    )

    @Option(name: .shortAndLong, help: .device)
    var device = "default"

    @Option(help: "Session preset, e.g. high, vga640x480, hd1280x720.")
    var preset: SessionPreset = .high

    @Option(help: "How the device is held: portrait, portraitUpsideDown, landscapeRight (default), landscapeLeft.")
    var orientation: VideoOrientation?

    @Flag(help: "Mirror the picture left to right.")
    var mirrored = false

    @Option(help: "How the picture fills the window: aspect (default), fill or resize.")
    var gravity: VideoGravity = .resizeAspect

    @Option(help: "The window's size, WIDTHxHEIGHT (default: the picture's own size as shown).")
    var size: WindowSize?

    @Option(help: "Where to show: window (default) or kms.")
    var sink: SinkOption = .window

    @Option(help: "Outline these: code types and face, e.g. qr,ean13,face (see 'capture scan --help').")
    var scan: TypeList?

    @Option(parsing: .unconditional, help: "Close after this many seconds (greater than 0, at most 365 days).", transform: Seconds.positive)
    var duration: Double?

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        global.bootstrapLogging()
        let session = CaptureSession()
        try session.setSessionPreset(preset)
        try session.checked.addInput(CaptureDeviceInput(device: try CaptureDevice.find(device)))
        let preview = VideoPreview(session: session)
        preview.sink = sink.value
        preview.videoGravity = gravity
        if let size { preview.bounds = CGRect(x: 0, y: 0, width: size.width, height: size.height) }
        if let orientation { preview.connection?.videoOrientation = orientation }
        if mirrored { preview.connection?.isVideoMirrored = true }
        var outliner: PreviewOutliner?
        if let scan {
            let metadata = MetadataOutput()
            try session.checked.addOutput(metadata)
            try metadata.setMetadataObjectTypes(scan.values)
            preview.overlay = PreviewOverlay()
            outliner = PreviewOutliner(preview: preview, metadata: metadata)
        }

        let trap = InterruptTrap()
        let stop = StopSignal()
        trap.onInterrupt { stop.fire() }
        try await session.checked.startRunning()
        if global.verbose { Record.note("pipeline: \(session.pipelineDescription)") }
        if let failure = preview.failure {
            await session.checked.stopRunning()
            throw RuntimeFailure(message: failure.message)
        }
        Record.note("showing \(session.inputs.first.map { "\($0)" } ?? "the camera") in \(preview.sinkName ?? "nothing")")
        if let duration { stop.fire(after: duration) }
        while !stop.isFired && preview.failure == nil && session.isRunning {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if let failure = preview.failure { Record.note("the preview ended: \(failure.message)") }
        outliner?.stop()
        await session.checked.stopRunning()
        withExtendedLifetime(trap) {}
        print("\(preview.framesShown) frames shown")
    }
}

/// `--size 800x600`.
struct WindowSize: ExpressibleByArgument {
    var width: Int
    var height: Int

    init?(argument: String) {
        let parts = argument.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 && $0 <= 16384 }) else { return nil }
        (width, height) = (parts[0], parts[1])
    }
}

/// `--sink window|kms`.
enum SinkOption: String, ExpressibleByArgument, CaseIterable {
    case window, kms

    var value: PreviewSink { self == .kms ? .kms : .window }
}

extension VideoGravity: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }

    public static var allValueStrings: [String] { shortNames }
}
