import Dispatch
import Foundation

extension SegmentedMovieFileOutput {
    /// Starts recording segments into `destination`: a folder (made when missing), or a path
    /// with strftime fields (`rec/%Y-%m-%d/%H-%M-%S.mp4`, expanded in UTC).
    ///
    /// Returns once the recording's branch is in the running session; `delegate` (held until
    /// did-finish-recording) hears each segment's did-start and did-finish on `queue` (the
    /// output's own serial queue when nil). Throws, before anything starts, when the session is
    /// not running or has no video, the folder cannot take files, the container is not one of
    /// ``supportedFileExtensions``, the fragment interval is out of range, or a recording is
    /// already under way.
    public func startRecording(to destination: URL, delegate: any SegmentedMovieFileOutputDelegate, queue: DispatchQueue? = nil) throws(CaptureError) {
        guard owner.context.videoEncoder != nil else {
            throw .unsupported(feature: "H.264 encoding (install x264enc: gstreamer1.0-plugins-ugly)", device: "this machine")
        }
        guard owner.value?.isRunning == true else { throw .sessionNotRunning }
        guard let video = connection(with: .video), video.isEnabled else { throw .noCompatibleInput(output: kind) }
        let (duration, interval, fileType, settings, retention) = state.withLock {
            ($0.segmentDuration, $0.fragmentInterval, $0.fileType, $0.codecSettings, $0.retention)
        }
        let (events, writesSegments) = state.withLock { ($0.events, $0.recordsSegments) }
        guard writesSegments || events?.writesClips == true else {
            throw .invalidSetting(name: "recordsSegments", value: "false", valid: "true, or an eventRecording that writes clips: else nothing is recorded")
        }
        guard interval.isNumeric, interval.seconds >= 0.1, interval.seconds <= duration.seconds else {
            throw .invalidSetting(name: "movieFragmentInterval", value: "\(interval)", valid: "from 0.1 s to the segment duration (\(duration.seconds) s)")
        }
        let naming = try SegmentNaming(destination: destination, fileType: fileType)
        let source = video.device.map { SourceFormat(width: $0.activeFormat.width, height: $0.activeFormat.height, frameRate: $0.activeFrameRate,
                                                       pixelFormat: $0.activeFormat.pixelFormat) }
        let log = SegmentLog(folder: naming.folder, retention: retention, delegate: delegate, queue: queue ?? delegateQueue,
                             output: { [weak self] in self }, onFailure: { [weak self] error in self?.end(error: error) })
        // The connection's orientation and mirroring when the recording starts, as a display
        // matrix in every segment's (and clip's) header, as MovieFileOutput writes it (MP4/MOV:
        // Matroska has none).
        let (orientation, mirrored) = video.orientationState
        let matrix = naming.container.fragments && (orientation != .landscapeRight || mirrored) ? DisplayMatrix(clockwiseDegrees: orientation.rotationDegrees, mirrored: mirrored) : nil
        let recording = SegmentedRecording(naming: naming, segmentDuration: duration, codec: source.map(settings.resolved(for:)) ?? settings,
                                           fragmentInterval: interval, writesSegments: writesSegments, events: events, matrix: matrix, log: log)
        let started = state.withLock { state -> Bool in
            guard state.recording == nil else { return false }
            state.recording = recording
            state.stopping = false
            return true
        }
        guard started else {
            throw .invalidSetting(name: "recording", value: destination.path, valid: "one recording at a time: stop the current one first")
        }
        owner.branchChanged()
        if recording.progress.withLock({ !$0.attached }) {
            let error = CaptureError.pipelineFailed(element: kind, message: "the session could not add the recording's branch")
            finish(recording, error: error)
            throw error
        }
    }

    /// Checks, without recording, what ``startRecording(to:delegate:queue:)`` checks of
    /// `destination`: the folder is one (made when missing) that takes files, and the container
    /// (a pattern's extension, else ``fileType``) is one segments are written in. For a command
    /// that must refuse before its camera starts.
    public func checkDestination(_ destination: URL) throws(CaptureError) {
        _ = try SegmentNaming(destination: destination, fileType: fileType)
    }

    /// Stops the recording: the open segment gets its last fragment and is closed, and the
    /// delegate hears its did-finish (`.stopped`), then did-finish-recording. Does nothing when
    /// not recording. Safe from any thread, delegate methods included; returns once the
    /// recording's branch has left the pipeline.
    public func stopRecording() {
        end(error: nil)
    }

    /// Ends the recording (a stop, or writing failed with `error`).
    func end(error: CaptureError?) {
        let recording = state.withLock { state -> SegmentedRecording? in
            guard let recording = state.recording, !state.stopping else { return nil }
            state.stopping = true
            return recording
        }
        guard let recording else { return }
        if let error { recording.progress.withLock { $0.ending = error } }
        owner.branchChanged()
        // Not running (the session stopped meanwhile): nothing will detach the branch.
        if state.withLock({ $0.recording === recording }), recording.progress.withLock({ !$0.attached || $0.finished }) {
            finish(recording, error: error)
        }
    }

    /// Closes the recording's open segment and says it ended: why `ending` says (a failure), or
    /// `error`.
    func finish(_ recording: SegmentedRecording, error: CaptureError?) {
        let reason = recording.progress.withLock { $0.ending } ?? error
        recording.finish(output: self, error: reason)
        state.withLock { state in
            if state.recording === recording {
                state.recording = nil
                state.stopping = false
            }
        }
    }

    /// A device feeding the recording is gone or taken: the open segment is closed.
    func inputInterrupted(_ device: CaptureDevice, reason: InterruptionReason) {
        guard connections.contains(where: { $0.inputPorts.contains { $0.device == device } }) else { return }
        end(error: .recordingInterrupted(device: device.uniqueID, reason: reason))
    }
}
