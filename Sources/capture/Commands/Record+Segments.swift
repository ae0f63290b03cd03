import ArgumentParser
import CaptureKit
import Foundation

/// `capture record --segment SECONDS -o DIR/`: continuous recording into segment files.
extension Record {
    /// Whether `-o` asks for segments: a folder (`DIR/`, or one that exists), a strftime pattern
    /// (a `%` in it), or any `-o` with `--segment`.
    var isSegmented: Bool {
        var isDirectory: ObjCBool = false
        return segment != nil || eventOptions.on != nil || output.hasSuffix("/") || output.contains("%")
            || (FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    /// The usage errors of segmented mode: a plain file with `--segment`, a length out of range,
    /// and the options that need one file.
    func validateSegments() throws {
        guard !output.isEmpty else { throw ValidationError("-o '' is empty; give a folder for the segments, e.g. -o recordings/") }
        var isDirectory: ObjCBool = false
        let folder = output.hasSuffix("/") || output.contains("%") || (FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue)
        guard folder else {
            throw ValidationError("--segment and --on need -o to be a folder (-o recordings/) or a strftime pattern (-o 'recordings/%Y-%m-%d/%H-%M-%S.mp4'), not the file '\(output)'")
        }
        if let segment, segment < 1 || segment > 86_400 {
            throw ValidationError("--segment \(Self.number(segment)) is out of range: a number of seconds from 1 to 86400 (a day)")
        }
        if maxSize != nil { throw ValidationError("--max-size limits one file; segments are limited by --segment") }
        if force { throw ValidationError("--force replaces one file; segments never replace one (a name taken gets -1, -2, …)") }
        try eventOptions.checkUsage(extra: [("--clips", clips), ("--events", events), ("--webhook", webhook != nil)])
        if clips, segment == nil { throw ValidationError("--clips writes clips beside segments: give --segment too (without it, --on writes clips only)") }
    }

    /// Records segments until --duration or a signal, printing each closed segment's path.
    func runSegmented() async throws {
        let session = CaptureSession()
        let segments = SegmentedMovieFileOutput()
        let camera = try CaptureDevice.find(device)
        try session.setSessionPreset(preset)
        try session.checked.addInput(CaptureDeviceInput(device: camera))
        if audio != "none" { try session.checked.addInput(CaptureDeviceInput(device: try Self.microphone(audio))) }
        try segments.setSegmentDuration(CaptureTime(seconds: segment ?? 60, preferredTimescale: 1000))
        if let fragment, fragment > 0 { segments.movieFragmentInterval = CaptureTime(seconds: fragment, preferredTimescale: 1000) }
        try segments.setRetention(retention.retention)
        let kinds = try eventOptions.kinds()
        if !kinds.isEmpty {
            try segments.setEventRecording(eventOptions.recording(writesClips: segment == nil || clips))
            segments.recordsSegments = segment != nil
        }
        try session.checked.addOutput(segments)
        if let connection = segments.connection(with: .video) {
            if let orientation { connection.videoOrientation = orientation }
            if mirrored { connection.isVideoMirrored = true }
        }
        let triggers = EventTriggers(output: segments, kinds: kinds, motion: eventOptions.motion)
        try triggers.install(in: session)
        try segments.setOutputSettings(VideoCodecSettings(codec: codec, bitrate: bitrate.map { $0 * 1000 }, overlay: overlayOptions.videoOverlay))
        if global.verbose { Self.note("encoder: \(segments.videoEncoderName ?? "no H.264 encoder")") }
        let destination = URL(fileURLWithPath: output, isDirectory: !output.contains("%"))
        try segments.checkDestination(destination)

        let trap = InterruptTrap()
        try await session.checked.startRunning()
        if trap.interrupted {
            await session.checked.stopRunning()
            throw RuntimeFailure(message: "interrupted before the recording started; nothing was written")
        }
        let webhook = self.webhook.map { EventWebhook(url: $0, log: { Self.note($0) }) }
        let events = SegmentEvents(log: { Self.note($0) }, printsEvents: self.events, webhook: webhook)
        try segments.startRecording(to: destination, delegate: events)
        if global.verbose { Self.note("pipeline: \(session.pipelineDescription)") }
        trap.onInterrupt { segments.stopRecording() }
        let timer = duration.map { seconds in
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                if !Task.isCancelled { segments.stopRecording() }
            }
        }
        var ending: CaptureError?
        for await event in events.events {
            switch event {
            case .finished(let segment, _, _):
                if !self.events { FileHandle.standardOutput.write(Data((segment.url.path + "\n").utf8)) }
            case .recordingFinished(let error):
                ending = error
            }
        }
        timer?.cancel()
        await session.checked.stopRunning()
        await webhook?.finish(within: EventWebhook.finishing)
        withExtendedLifetime((trap, triggers)) {}
        if let ending { throw ending }
    }
}
