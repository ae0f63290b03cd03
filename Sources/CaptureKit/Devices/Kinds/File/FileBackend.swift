import GStreamerSwift

/// A file playing as a camera: `filesrc ! decodebin`, converted and scaled to the format, and
/// paced by the clock. A video loops (`StreamLoop`); a still image is frozen into a live stream;
/// a numbered image sequence is read by `multifilesrc`, in a loop.
struct FileBackend: DeviceBackend {
    let file: FileCameraDescription
    let mediaType = MediaType.video
    var deviceType: CaptureDevice.DeviceType { .file }
    var route: String { "file" }

    /// The file's own exposure and white balance, as a camera whose controls cannot be changed
    /// keeps its automatic ones; digital zoom in the pipeline.
    var capabilities: DeviceCapabilities { .automaticOnly }

    var isDrawnInSoftware: Bool { true }

    /// The decoder's raw video is linked (`Bin.planned`), its other streams left unlinked. An
    /// image is scaled once, then `imagefreeze` repeats it live at the format's rate; a video or
    /// a sequence is scaled and its rate converted per frame, and `clocksync` paces it, its
    /// timestamps made endless by `StreamLoop` at the converter. The rate converter starts at
    /// the first frame (`skip-to-first`): its timestamp is the running time the file joined at,
    /// and `videorate` would otherwise repeat that frame from the segment's start to it (on a
    /// busy machine, the first image of a sequence shown twice).
    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        let source: PipelinePlan.Element = if let first = file.firstIndex {
            .init("multifilesrc", .src, in: prefix, [.init("location", .string(file.path)), .init("index", .int(first)),
                                                          .init("loop", true), .init("caps", .caps(file.imageCaps))])
        } else {
            .init("filesrc", .src, in: prefix, [.init("location", .string(file.path))])
        }
        let head: [PipelinePlan.Element] = [
            source,
            .init("decodebin", .decode, in: prefix),
            .init("videoconvert", .fileconvert, in: prefix),
            .init("videoscale", .filescale, in: prefix),
        ]
        let pacing: [PipelinePlan.Element] = file.isImage && file.firstIndex == nil
            ? [.init("imagefreeze", .freeze, in: prefix, [.init("is-live", true)])]
            : [.init("videorate", .filerate, in: prefix, [.init("skip-to-first", true)]), .init("clocksync", .clock, in: prefix)]
        return head + pacing + PipelineCompiler.formatElements(prefix: prefix, device: device, format: format)
    }

    /// A video restarts at its end; one that cannot seek stops there, and the log says so. A
    /// sequence loops by itself; its timestamps still start at the running time it joins at.
    func prepare(_ bin: Bin, prefix: String, device: CaptureDevice, format: CaptureDevice.Format) throws(GStreamerError) -> (any FramePainter)? {
        guard !file.isImage || file.firstIndex != nil else { return nil }
        let path = file.path
        _ = StreamLoop(on: try bin.element(.fileconvert, in: prefix).staticPad("sink")) { restarts in
            CaptureLog.logger.warning("'\(path)' cannot seek back to its start; it stopped after \(restarts) play(s)")
        }
        return nil
    }
}
