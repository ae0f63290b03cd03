import CaptureKit
import Foundation

/// Building a capture session from a pipeline file.
extension PipelineFile {
    /// Builds the capture session the file describes, one to one with the Swift API.
    ///
    /// - `preset` becomes `setSessionPreset(_:)`. An input with a `format` needs the preset
    ///   `inputPriority`, which is what a file with formats and no preset gets; a file with neither
    ///   keeps the session's default preset.
    /// - Each input becomes a `CaptureDeviceInput` for `CaptureDevice.find(_:)` (`virtual-mic` is
    ///   the virtual microphone, `virtual:microphone`), added with
    ///   `addInputWithNoConnections(_:)`. A video `format` selects the device format of that size
    ///   (raw formats first, then the highest frame rate) that supports the requested frame rate;
    ///   an audio `format` the device format with every part given (the active format when it
    ///   has them, else stereo before mono, S16LE before F32LE, the rate closest to 48 kHz). Either
    ///   is made active with `setActiveFormat(_:)`. An input no device matches is reported with
    ///   the devices there are; only the microphones when the input has an audio format or an
    ///   `audioData` output names it.
    /// - Each `still` output becomes a `StillImageOutput` with JPEG (quality / 100) or
    ///   uncompressed settings; each `videoData` output a `VideoDataOutput` with its pixel format,
    ///   size and `alwaysDiscardsLateVideoFrames`; each `metadata` output a `MetadataOutput`; each
    ///   `audioData` output an `AudioDataOutput` with its `audioSettings`; each `movie` output a
    ///   `MovieFileOutput` with its limits, fragment interval and video settings, its `audio`
    ///   input's audio ports connected too. All are added with
    ///   `addOutputWithNoConnections(_:)` and connected with `addConnection(_:)` to the ports of
    ///   their media type of the named input, or, when the file names none, of the first input
    ///   whose device has that media type (audio for `audioData`, video for the others). The file
    ///   may set a video connection's `videoOrientation` and `isVideoMirrored` (only a front camera's
    ///   preview is mirrored unless the file says otherwise, as in AVFoundation).
    ///
    /// The session is not started; it belongs to `context` (the shared one unless given).
    /// - Returns: The session and the objects built for each input and output.
    /// - Throws: ``PipelineFileError`` located at the offending input's `device` or `format`
    ///   value, the `preset` value, the output or its connection, with ``PipelineFileError/Kind/capture(_:)``
    ///   carrying CaptureKit's error, which names the offending value and what is available, or
    ///   ``PipelineFileError/Kind/wrongMediaInput(kind:output:needs:input:suggestion:)`` for an
    ///   output connected to an input whose device lacks its media type.
    public func makeSession(context: CaptureContext = .shared) throws(PipelineFileError) -> PipelineSession {
        let session = CaptureSession(context: context)
        let firstFormat = inputs.first { $0.format != nil }
        if let firstFormat, let preset, preset != .inputPriority {
            throw PipelineFileError(
                .conflictingKeys(
                    "format",
                    with: "preset",
                    reason: "an input format needs preset 'inputPriority' or no preset, "
                        + "but preset '\(preset.rawValue)' chooses the devices' formats itself"
                ),
                at: firstFormat.formatLocation ?? firstFormat.location
            )
        }
        let sessionPreset = preset.map { SessionPreset(rawValue: $0.rawValue)! }
            ?? (firstFormat == nil ? nil : .inputPriority)
        if sessionPreset == .inputPriority {
            try capture(at: presetLocation ?? runLocation) { () throws(CaptureError) in
                try session.setSessionPreset(.inputPriority)
            }
        }

        var deviceInputs: [CaptureDeviceInput] = []
        for input in inputs {
            deviceInputs.append(try addInput(input, to: session, expectsAudio: expectsAudio(input)))
        }
        if let sessionPreset, sessionPreset != .inputPriority {
            try capture(at: presetLocation ?? runLocation) { () throws(CaptureError) in
                try session.setSessionPreset(sessionPreset)
            }
        }

        var captureOutputs: [any CaptureOutput] = []
        var connections: [CaptureConnection] = []
        var triggers: [MetadataEventTrigger] = []
        for output in outputs {
            let (captureOutput, connection) = try addOutput(output, to: session, inputs: deviceInputs)
            captureOutputs.append(captureOutput)
            connections.append(connection)
            if case .movie(let spec) = output, let events = spec.events, let segments = captureOutput as? SegmentedMovieFileOutput {
                triggers.append(try addEventTrigger(events, for: segments, fedBy: connection, to: session))
            }
        }

        let built = PipelineSession(
            file: self,
            session: session,
            inputs: deviceInputs,
            outputs: captureOutputs,
            connections: connections,
            eventTriggers: triggers
        )
        return built
    }

    /// Whether the file says the input is a microphone without naming a built-in device: it has
    /// an audio format, or an `audioData` output or a `movie` output's `audio` names it.
    private func expectsAudio(_ input: Input) -> Bool {
        input.audioFormat != nil || outputs.contains { output in
            let audio: ConnectionSpec? = switch output {
            case .audioData(let spec): spec.connection
            case .movie(let spec): spec.audio
            case .stream(let spec): spec.audio
            default: nil
            }
            return audio.map { $0.namesInput && $0.input == input.name } ?? false
        }
    }

    /// Finds the input's device, makes its input, selects its format and adds it.
    private func addInput(_ input: Input, to session: CaptureSession, expectsAudio: Bool)
        throws(PipelineFileError) -> CaptureDeviceInput
    {
        let reference = try input.device.resolvingFileCamera(at: input.deviceLocation)
        let deviceInput = try capture(at: input.deviceLocation) { () throws(CaptureError) in
            try CaptureDeviceInput(device: try Self.findDevice(reference, microphone: expectsAudio, in: session.context))
        }
        if input.format != nil || input.audioFormat != nil {
            try capture(at: input.formatLocation ?? input.location) { () throws(CaptureError) in
                let device = deviceInput.device
                try device.lockForConfiguration()
                defer { device.unlockForConfiguration() }
                if let format = input.format {
                    try device.setActiveFormat(try Self.deviceFormat(format, of: device))
                    if let rate = format.frameRate {
                        try device.setActiveVideoMinFrameDuration(CaptureTime(value: 1000, timescale: Int32((rate * 1000).rounded())))
                    }
                } else if let format = input.audioFormat {
                    try device.setActiveFormat(try Self.deviceFormat(format, of: device))
                }
            }
        }
        try capture(at: input.deviceLocation) { () throws(CaptureError) in
            try session.checked.addInputWithNoConnections(deviceInput)
        }
        if let controls = input.controls {
            try capture(at: controls.location) { () throws(CaptureError) in
                try controls.apply(to: deviceInput.device)
            }
        }
        return deviceInput
    }

    /// The device a reference names, as `context.find(_:)` finds it (the session's context's
    /// devices). When none matches and the input is meant to be a `microphone`, the error lists
    /// the microphones (`INDEX: UNIQUEID`, indices into `context.devices()` as a device index
    /// counts them).
    static func findDevice(_ reference: DeviceReference, microphone: Bool, in context: CaptureContext) throws(CaptureError) -> CaptureDevice {
        do {
            return try context.find(reference.findReference)
        } catch where microphone && error.code == .deviceNotFound {
            let microphones = context.devices().enumerated().filter { $0.element.hasMediaType(.audio) }
            throw .deviceNotFound(reference.findReference, available: microphones.map { "\($0.offset): \($0.element.uniqueID)" })
        }
    }

    /// The device's format matching a requested audio format: the active format when it has every
    /// part given, else stereo before mono, S16LE before F32LE, then the rate closest to 48 kHz.
    static func deviceFormat(_ spec: AudioFormatSpec, of device: CaptureDevice) throws(CaptureError) -> CaptureDevice.Format {
        let candidates = device.formats.filter { $0.audioFormat.map(spec.matches) ?? false }
        if candidates.contains(device.activeFormat) { return device.activeFormat }
        let order = AudioSampleFormat.allCases
        let best = candidates.min { a, b in
            let x = a.audioFormat!, y = b.audioFormat!
            return (x.channelCount == 2 ? 0 : 1, order.firstIndex(of: x.sampleFormat)!, abs(x.sampleRate - 48000))
                < (y.channelCount == 2 ? 0 : 1, order.firstIndex(of: y.sampleFormat)!, abs(y.sampleRate - 48000))
        }
        guard let best else {
            throw .unsupportedFormat(spec.description, available: device.formats.map { format in
                format.audioFormat.map { AudioFormatSpec($0).description } ?? format.description
            })
        }
        return best
    }

    /// The device's format matching a requested format: same size, supporting the frame rate if
    /// one is given; raw pixel formats win over compressed ones, then the highest frame rate.
    static func deviceFormat(_ spec: FormatSpec, of device: CaptureDevice) throws(CaptureError) -> CaptureDevice.Format {
        let candidates = device.formats.filter { format in
            format.mediaType == .video && format.width == spec.width && format.height == spec.height
                && spec.frameRate.map(format.supportsFrameRate) ?? true
        }
        let best = candidates.min { a, b in
            let rawA = a.pixelFormat != .mjpeg && a.pixelFormat != .h264
            let rawB = b.pixelFormat != .mjpeg && b.pixelFormat != .h264
            if rawA != rawB { return rawA }
            return a.maxFrameRate > b.maxFrameRate
        }
        guard let best else {
            throw .unsupportedFormat(spec.text, available: device.formats.map(\.description))
        }
        return best
    }

    /// Makes and configures the output, adds it and connects it to the ports of its media type
    /// of its input.
    private func addOutput(_ output: Output, to session: CaptureSession, inputs: [CaptureDeviceInput])
        throws(PipelineFileError) -> (any CaptureOutput, CaptureConnection)
    {
        let spec = output.connection
        let index = try connectedInput(spec, needs: output.mediaType, kind: output.kindName, output: output.name, inputs: inputs)

        let captureOutput: any CaptureOutput
        switch output {
        case .still(let spec):
            let still = StillImageOutput()
            try capture(at: spec.location) { () throws(CaptureError) in
                try still.setOutputSettings(spec.settings)
            }
            captureOutput = still
        case .videoData(let spec):
            let data = VideoDataOutput()
            try capture(at: spec.location) { () throws(CaptureError) in
                try data.setVideoSettings(spec.settings)
            }
            data.alwaysDiscardsLateVideoFrames = spec.discardLate
            captureOutput = data
        case .metadata(let spec):
            let metadata = MetadataOutput()
            try capture(at: spec.location) { () throws(CaptureError) in
                try metadata.setMetadataObjectTypes(spec.types)
                try metadata.setRectOfInterest(spec.rectOfInterest)
                if let motion = spec.motion { try metadata.setMotionDetection(motion) }
            }
            captureOutput = metadata
        case .audioData(let spec):
            let audio = AudioDataOutput()
            try capture(at: spec.location) { () throws(CaptureError) in
                try audio.setAudioSettings(spec.settings)
            }
            captureOutput = audio
        case .movie(let spec) where spec.isSegmented:
            let segments = SegmentedMovieFileOutput()
            try capture(at: spec.location) { () throws(CaptureError) in
                try segments.setSegmentDuration(CaptureTime(seconds: spec.segment ?? 60, preferredTimescale: 1000))
                try segments.setRetention(SegmentRetention(maxAge: spec.keep, maxBytes: spec.maxDisk?.bytes))
                if let events = spec.events { try segments.setEventRecording(events.recording) }
            }
            if let interval = spec.fragmentInterval, interval > 0 {
                segments.movieFragmentInterval = CaptureTime(seconds: interval, preferredTimescale: 1000)
            }
            captureOutput = segments
        case .movie(let spec):
            let movie = MovieFileOutput()
            movie.setLimits(maxDuration: spec.maxDuration, maxSize: spec.maxSize, fragmentInterval: spec.fragmentInterval)
            captureOutput = movie
        case .stream(let spec):
            captureOutput = try capture(at: spec.location) { () throws(CaptureError) in
                try StreamOutput(target: spec.target, videoSettings: spec.codecSettings)
            }
        case .preview(let spec):
            let preview = VideoPreview()
            preview.sink = spec.sink
            preview.videoGravity = spec.gravity
            if let size = spec.size { preview.bounds = CGRect(x: 0, y: 0, width: size.width, height: size.height) }
            captureOutput = preview
        }
        try capture(at: output.location) { () throws(CaptureError) in
            try session.checked.addOutputWithNoConnections(captureOutput)
        }

        let ports = inputs[index].ports.filter { $0.mediaType == output.mediaType }
        let connection = CaptureConnection(inputPorts: ports, output: captureOutput)
        try capture(at: spec.location) { () throws(CaptureError) in
            try session.checked.addConnection(connection)
        }
        if let orientation = spec.orientation {
            connection.videoOrientation = VideoOrientation(name: orientation.rawValue)!
        }
        if let mirrored = spec.mirrored {
            connection.isVideoMirrored = mirrored
        }
        if case .stream(let streamSpec) = output {
            try connectAudio(streamSpec.audio, kind: "stream", of: streamSpec.name, to: captureOutput, in: session, inputs: inputs)
        }
        if case .movie(let movieSpec) = output, let segments = captureOutput as? SegmentedMovieFileOutput {
            try connectAudio(movieSpec.audio, kind: "movie", of: movieSpec.name, to: segments, in: session, inputs: inputs)
            if let settings = movieSpec.codecSettings {
                try capture(at: movieSpec.location) { () throws(CaptureError) in
                    try segments.setOutputSettings(settings)
                }
            }
        }
        if case .movie(let movieSpec) = output, let movie = captureOutput as? MovieFileOutput {
            try connectAudio(movieSpec.audio, kind: "movie", of: movieSpec.name, to: movie, in: session, inputs: inputs)
            if let settings = movieSpec.codecSettings {
                try capture(at: movieSpec.location) { () throws(CaptureError) in
                    try movie.setOutputSettings(settings, for: connection)
                }
            }
        }
        return (captureOutput, connection)
    }

    /// A metadata output fed by the same camera as a segmented `movie`, looking for what its
    /// `events` trigger on, with the trigger as its delegate.
    private func addEventTrigger(_ events: EventsSpec, for segments: SegmentedMovieFileOutput, fedBy video: CaptureConnection,
                                 to session: CaptureSession) throws(PipelineFileError) -> MetadataEventTrigger {
        let trigger = MetadataEventTrigger(recording: segments, kinds: events.triggers)
        let metadata = MetadataOutput()
        try capture(at: events.location) { () throws(CaptureError) in
            try session.checked.addOutputWithNoConnections(metadata)
            try session.checked.addConnection(CaptureConnection(inputPorts: video.inputPorts, output: metadata))
            try trigger.watch(metadata, motion: events.motion, queue: DispatchQueue(label: "CaptureFiles.eventTriggers"))
        }
        return trigger
    }

    /// Connects a `movie` or `stream` output's `audio` input's audio ports to it, when it has one.
    private func connectAudio(_ audio: ConnectionSpec?, kind: String, of name: String, to output: any CaptureOutput, in session: CaptureSession,
                              inputs: [CaptureDeviceInput]) throws(PipelineFileError) {
        guard let audio else { return }
        let index = try connectedInput(audio, needs: .audio, kind: kind, output: name, inputs: inputs)
        let connection = CaptureConnection(inputPorts: inputs[index].ports.filter { $0.mediaType == .audio }, output: output)
        try capture(at: audio.location) { () throws(CaptureError) in
            try session.checked.addConnection(connection)
        }
    }

    /// The index of the input feeding connection `spec` of the `kind` output called `output`:
    /// the input it names, or, when it names none, the first whose device has media type `needs`.
    /// - Throws: ``PipelineFileError/Kind/wrongMediaInput(kind:output:needs:input:suggestion:)``
    ///   at the connection when the named input's device lacks the media type, or when no
    ///   input's device has it, suggesting an input whose device has it.
    private func connectedInput(_ spec: ConnectionSpec, needs: MediaType, kind: String, output: String,
                                inputs: [CaptureDeviceInput]) throws(PipelineFileError) -> Int {
        let suitable = self.inputs.indices.first { inputs[$0].device.hasMediaType(needs) }
        guard spec.namesInput else {
            guard let suitable else {
                throw PipelineFileError(
                    .wrongMediaInput(kind: kind, output: output, needs: needs, input: nil, suggestion: nil),
                    at: spec.location
                )
            }
            return suitable
        }
        guard let index = self.inputs.firstIndex(where: { $0.name == spec.input }) else {
            let names = self.inputs.map(\.name)
            throw PipelineFileError(
                .unknownInput(spec.input, available: names, suggestion: Suggestion.closest(to: spec.input, among: names)),
                at: spec.location
            )
        }
        guard inputs[index].device.hasMediaType(needs) else {
            throw PipelineFileError(
                .wrongMediaInput(kind: kind, output: output, needs: needs, input: spec.input,
                                 suggestion: suitable.map { self.inputs[$0].name }),
                at: spec.location
            )
        }
        return index
    }

    /// Runs a CaptureKit call, reporting its error at `location`.
    @discardableResult
    private func capture<T>(at location: SourceLocation, _ body: () throws(CaptureError) -> T) throws(PipelineFileError) -> T {
        do {
            return try body()
        } catch {
            throw PipelineFileError(.capture(error), at: location)
        }
    }
}

extension PipelineFile.DeviceReference {
    /// The reference as `CaptureDevice.find(_:)` reads it.
    var findReference: String {
        switch self {
        case .virtual(.back): "virtual"
        case .virtual(.front): "virtual-front"
        case .virtualMicrophone: "virtual:microphone"
        case .index(let index): String(index)
        case .identifier(let identifier): identifier
        }
    }
}

extension PipelineFile.FormatSpec {
    /// The request as written: `WIDTHxHEIGHT` or `WIDTHxHEIGHT@FPS`.
    var text: String {
        "\(width)x\(height)" + (frameRate.map { "@" + Self.rateText($0) } ?? "")
    }

    /// A frame rate without a needless fraction: `30`, `29.97`.
    static func rateText(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }
}

extension PipelineFile.StillSpec {
    /// The still image output settings: JPEG at `quality / 100` (CaptureKit's default when not
    /// given), or uncompressed frames.
    var settings: StillImageSettings {
        switch format {
        case .jpeg: quality.map { .jpeg(quality: Double($0) / 100) } ?? .default
        case .bgra: .uncompressed(.bgra)
        case .nv12: .uncompressed(.nv12)
        case .i420: .uncompressed(.i420)
        }
    }
}

extension PipelineFile.VideoDataSpec {
    /// The video data output settings: the codec's compressed frames, or the pixel format and,
    /// if given, size.
    var settings: VideoDataOutput.VideoSettings {
        if let codec { return VideoDataOutput.VideoSettings(codec: codec, bitrate: bitrate, keyFrameInterval: keyFrameInterval) }
        return VideoDataOutput.VideoSettings(
            pixelFormat: CaptureKit.PixelFormat(rawValue: pixelFormat.rawValue)!,
            width: size?.width,
            height: size?.height
        )
    }
}

extension PipelineFile.AudioDataSpec {
    /// The audio data output settings: the parts of ``format`` given, the device's for the rest;
    /// nil without a format.
    var settings: AudioDataOutput.AudioSettings? {
        format.map { .init(sampleRate: $0.sampleRate, channelCount: $0.channelCount, sampleFormat: $0.sampleFormat) }
    }
}
