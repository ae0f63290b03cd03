import CaptureKit

/// Building a capture session from a pipeline file.
extension PipelineFile {
    /// Builds the capture session the file describes, one to one with the Swift API.
    ///
    /// - `preset` becomes `setSessionPreset(_:)`. An input with a `format` needs the preset
    ///   `inputPriority`, which is what a file with formats and no preset gets; a file with neither
    ///   keeps the session's default preset.
    /// - Each input becomes a `CaptureDeviceInput` for `CaptureDevice.find(_:)`, added with
    ///   `addInputWithNoConnections(_:)`. Its `format` selects the device format of that size
    ///   (raw formats first, then the highest frame rate) that supports the requested frame rate,
    ///   made active with `setActiveFormat(_:)`.
    /// - Each `still` output becomes a `StillImageOutput` with JPEG (quality / 100) or
    ///   uncompressed settings; each `videoData` output a `VideoDataOutput` with its pixel format,
    ///   size and `alwaysDiscardsLateVideoFrames`. Both are added with
    ///   `addOutputWithNoConnections(_:)` and connected to the named input with
    ///   `addConnection(_:)`, whose `videoOrientation` and `isVideoMirrored` the file may set
    ///   (front cameras are mirrored unless the file says otherwise).
    ///
    /// The session is not started.
    /// - Returns: The session and the objects built for each input and output.
    /// - Throws: ``PipelineFileError`` located at the offending input's `device` or `format`
    ///   value, the `preset` value, the output or its connection, with ``PipelineFileError/Kind/capture(_:)``
    ///   carrying CaptureKit's error, which names the offending value and what is available.
    public func makeSession() throws(PipelineFileError) -> PipelineSession {
        let session = CaptureSession()
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
            deviceInputs.append(try addInput(input, to: session))
        }
        if let sessionPreset, sessionPreset != .inputPriority {
            try capture(at: presetLocation ?? runLocation) { () throws(CaptureError) in
                try session.setSessionPreset(sessionPreset)
            }
        }

        var captureOutputs: [any CaptureOutput] = []
        var connections: [CaptureConnection] = []
        for output in outputs {
            let (captureOutput, connection) = try addOutput(output, to: session, inputs: deviceInputs)
            captureOutputs.append(captureOutput)
            connections.append(connection)
        }

        let built = PipelineSession(
            file: self,
            session: session,
            inputs: deviceInputs,
            outputs: captureOutputs,
            connections: connections
        )
        return built
    }

    /// Finds the input's device, makes its input, selects its format and adds it.
    private func addInput(_ input: Input, to session: CaptureSession) throws(PipelineFileError) -> CaptureDeviceInput {
        let deviceInput = try capture(at: input.deviceLocation) { () throws(CaptureError) in
            let device = try CaptureDevice.find(input.device.findReference)
            return try CaptureDeviceInput(device: device)
        }
        if let format = input.format {
            try capture(at: input.formatLocation ?? input.location) { () throws(CaptureError) in
                let device = deviceInput.device
                try device.lockForConfiguration()
                defer { device.unlockForConfiguration() }
                try device.setActiveFormat(try Self.deviceFormat(format, of: device))
                if let rate = format.frameRate {
                    try device.setActiveVideoMinFrameDuration(CaptureTime(value: 1000, timescale: Int32((rate * 1000).rounded())))
                }
            }
        }
        try capture(at: input.deviceLocation) { () throws(CaptureError) in
            try session.addInputWithNoConnections(deviceInput)
        }
        if let controls = input.controls {
            try capture(at: controls.location) { () throws(CaptureError) in
                try controls.apply(to: deviceInput.device)
            }
        }
        return deviceInput
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

    /// Makes and configures the output, adds it and connects it to its input.
    private func addOutput(_ output: Output, to session: CaptureSession, inputs: [CaptureDeviceInput])
        throws(PipelineFileError) -> (any CaptureOutput, CaptureConnection)
    {
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
            }
            captureOutput = metadata
        }
        try capture(at: output.location) { () throws(CaptureError) in
            try session.addOutputWithNoConnections(captureOutput)
        }

        let spec = output.connection
        guard let index = self.inputs.firstIndex(where: { $0.name == spec.input }) else {
            let names = self.inputs.map(\.name)
            throw PipelineFileError(
                .unknownInput(spec.input, available: names, suggestion: Suggestion.closest(to: spec.input, among: names)),
                at: spec.location
            )
        }
        let ports = inputs[index].ports.filter { $0.mediaType == .video }
        let connection = CaptureConnection(inputPorts: ports, output: captureOutput)
        try capture(at: spec.location) { () throws(CaptureError) in
            try session.addConnection(connection)
        }
        if let orientation = spec.orientation {
            connection.videoOrientation = VideoOrientation(name: orientation.rawValue)!
        }
        if let mirrored = spec.mirrored {
            connection.isVideoMirrored = mirrored
        }
        return (captureOutput, connection)
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
    /// The video data output settings: pixel format and, if given, size.
    var settings: VideoDataOutput.VideoSettings {
        VideoDataOutput.VideoSettings(
            pixelFormat: CaptureKit.PixelFormat(rawValue: pixelFormat.rawValue)!,
            width: size?.width,
            height: size?.height
        )
    }
}
