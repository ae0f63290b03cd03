import Dispatch
import Foundation

extension MovieFileOutput {
    /// Starts recording to `url` (AVCaptureFileOutput's `startRecording(to:recordingDelegate:)`).
    ///
    /// Returns at once; `delegate` (held until did-finish) hears did-start when the first frame
    /// is in the file, and did-finish when it is closed, both on the output's own serial queue.
    /// A recording that cannot start — the session is not running, the
    /// extension names no container, the file exists, one is already recording — is reported
    /// through did-finish with the error, as in AVFoundation.
    public func startRecording(to url: URL, recordingDelegate delegate: any FileOutputRecordingDelegate) {
        startRecording(to: url, recordingDelegate: delegate, queue: nil)
    }

    /// Starts recording as `startRecording(to:recordingDelegate:)` does, with the delegate
    /// called on `queue` (the output's own serial queue when nil).
    public func startRecording(to url: URL, recordingDelegate delegate: any FileOutputRecordingDelegate, queue: DispatchQueue?) {
        let queue = queue ?? delegateQueue
        do throws(CaptureError) {
            let recording = try makeRecording(to: url, delegate: delegate, queue: queue)
            let started = state.withLock { state -> Bool in
                guard state.recording == nil else { return false }
                state.recording = recording
                state.stopping = false
                return true
            }
            guard started else {
                throw .invalidSetting(name: "recording", value: url.path, valid: "one recording at a time: stop the current one first")
            }
            owner.branchChanged()
            if recording.progress.withLock({ !$0.attached }) {
                finish(recording, error: .pipelineFailed(element: "movie", message: "the session could not add the recording's branch"))
            }
        } catch {
            let delegate = UncheckedDelegate(value: delegate)
            queue.async { delegate.value.fileOutput(self, didFinishRecordingTo: url, from: self.connections, error: error) }
        }
    }

    /// Stops the recording: the session finishes the file and the delegate hears did-finish
    /// with no error once it is complete (MP4 and MOV get their index first). Does nothing when
    /// not recording. Safe from any thread, delegate methods included; returns once the
    /// recording has left the pipeline.
    public func stopRecording() {
        guard let recording = state.withLock({ $0.recording }) else { return }
        end(recording)
    }

    /// Whether the recording is paused.
    public var isRecordingPaused: Bool { state.withLock { $0.recording }?.progress.withLock { $0.pause.isPaused } ?? false }

    /// Pauses the recording (AVCaptureFileOutput's `pauseRecording()`): frames and audio stop
    /// going into the file, which stays open; the delegate hears did-pause. Does nothing when
    /// not recording or already paused. `recordedDuration` leaves the pause out.
    public func pauseRecording() {
        guard let recording = state.withLock({ $0.recording }) else { return }
        let paused = recording.progress.withLock { progress -> Bool in
            guard !progress.pause.isPaused, !progress.finished else { return false }
            progress.pause.pause()
            return true
        }
        guard paused else { return }
        recording.queue.async {
            recording.delegate.value.fileOutput(self, didPauseRecordingTo: recording.settings.url, from: recording.connections)
        }
    }

    /// Resumes a paused recording: the encoder is asked for a key frame, which goes into the file
    /// right after the last frame before the pause (no gap in its times, video or audio); the
    /// delegate hears did-resume then. Does nothing when not paused.
    public func resumeRecording() {
        guard let recording = state.withLock({ $0.recording }) else { return }
        let resumed = recording.progress.withLock { progress -> Bool in
            guard progress.pause.isPaused else { return false }
            progress.pause.requestResume()
            return true
        }
        if resumed { recording.pads.withLock { $0.entry }?.push(.forceKeyUnit()) }
    }

    /// Takes the recording's branch out (its file finished); the branch's removal sends did-finish.
    func end(_ recording: Recording) {
        let current = state.withLock { state -> Bool in
            guard state.recording === recording, !state.stopping else { return false }
            state.stopping = true
            return true
        }
        guard current else { return }
        recording.waitForAudioToStart(timeout: .milliseconds(500))
        owner.branchChanged()
        // Not running (the session stopped meanwhile): nothing will detach the branch.
        if state.withLock({ $0.recording === recording }), recording.progress.withLock({ !$0.attached || $0.finished }) {
            finish(recording, error: nil)
        }
    }

    /// A device feeding the recording is gone or taken: the file is finished with what it has.
    func inputInterrupted(_ device: CaptureDevice, reason: InterruptionReason) {
        guard let recording = state.withLock({ $0.recording }),
              recording.connections.contains(where: { $0.inputPorts.contains { $0.device == device } }) else { return }
        recording.requestStop(.recordingInterrupted(device: device.uniqueID, reason: reason))
    }

    /// Sends did-finish for `recording` (once) with why it ended: the reason a limit gave,
    /// else `error` (nil after `stopRecording`); `noDataCaptured`, and no file, when no frame
    /// reached the file.
    func finish(_ recording: Recording, error: CaptureError?) {
        let (ending, stats) = recording.progress.withLock { progress -> (CaptureError?, (Int, Int)?) in
            guard !progress.finished else { return (nil, nil) }
            progress.finished = true
            return (progress.ending ?? error, (progress.framesIn, progress.framesOut))
        }
        guard let stats else { return }
        recording.videoStartSettled()
        // No frame reached the muxer: the file holds headers and no media, which no player opens.
        // A failure keeps its own reason; an ending that would have left a complete file says so.
        let empty = stats.1 == 0 && (ending == nil || ending?.recordingSuccessfullyFinished == true)
        let reason = empty ? CaptureError.noDataCaptured(recording.settings.url) : ending
        // The recording needs no branch any more, though it is still being finalised.
        state.withLock { if $0.recording === recording { $0.stopping = true } }
        recording.syncer.close()
        let settings = recording.settings
        let finalizes = settings.container.fragments && settings.fragmentInterval.isNumeric && settings.fragmentInterval.seconds > 0
            && (reason == nil || reason?.recordingSuccessfullyFinished == true)
        // Off the session's executor: the index is written from the fragments, then did-finish.
        Self.finalizing.async {
            if empty { try? FileManager.default.removeItem(at: settings.url) }
            var reason = reason
            if finalizes, let failure = MovieFinalizer.finalize(settings.url, container: settings.container, matrix: settings.displayMatrix,
                                                               isCancelled: { recording.progress.withLock { $0.keepsFragments } }) {
                let error = CaptureError.movieNotFinalized(settings.url, because: failure.description, ending: reason)
                CaptureLog.logger.warning("\(error.message)")
                reason = error
            }
            self.finished(recording, reason: reason, stats: stats)
        }
    }

    /// Leaves the stopped recording's MP4 or MOV file as it was written, in fragments, rather
    /// than giving it a single index: what to do when the process is asked to end (a signal)
    /// while a long file is being finished.
    ///
    /// Returns at once; within moments the finalizer stops, and did-finish reports
    /// ``CaptureError/movieNotFinalized(_:because:ending:)``: the file is complete and plays,
    /// without a single index. Does nothing while recording (``stopRecording()`` first) or when
    /// no recording is being finished. Safe from any thread.
    public func stopFinalizing() {
        guard let recording = state.withLock({ $0.stopping ? $0.recording : nil }) else { return }
        recording.progress.withLock { $0.keepsFragments = true }
    }

    /// Whether the recording has stopped and its file is being finished (an MP4 or MOV given its
    /// index) before did-finish; ``stopFinalizing()`` cuts this short.
    public var isFinalizing: Bool { state.withLock { $0.recording != nil && $0.stopping } }

    /// Where recordings get their index, one at a time.
    static let finalizing = DispatchQueue(label: "CaptureKit.MovieFileOutput.finalizing")

    /// The file is complete: the figures of the recording are kept and did-finish is sent.
    private func finished(_ recording: Recording, reason: CaptureError?, stats: (Int, Int)) {
        let size = (try? FileManager.default.attributesOfItem(atPath: recording.settings.url.path)[.size] as? Int64) ?? 0
        state.withLock { state in
            state.lastFinished = (recording.duration, size, max(0, stats.0 - stats.1))
            if state.recording === recording {
                state.recording = nil
                state.stopping = false
            }
        }
        recording.queue.async {
            recording.delegate.value.fileOutput(self, didFinishRecordingTo: recording.settings.url, from: recording.connections, error: reason)
        }
    }

    private func makeRecording(to url: URL, delegate: any FileOutputRecordingDelegate, queue: DispatchQueue) throws(CaptureError) -> Recording {
        let container = try MovieContainer(url: url)
        guard owner.context.videoEncoder != nil else {
            throw .unsupported(feature: "H.264 encoding (install x264enc: gstreamer1.0-plugins-ugly)", device: "this machine")
        }
        guard owner.value?.isRunning == true else { throw .sessionNotRunning }
        guard let video = connection(with: .video), video.isEnabled else { throw .noCompatibleInput(output: kind) }
        if FileManager.default.fileExists(atPath: url.path) { throw .fileAlreadyExists(url) }
        let (orientation, mirrored) = video.orientationState
        // The encoding is fixed for the recording (defaults resolved for the format now): a later
        // format change reaches the file as new caps, which the muxer refuses, ending it with a
        // reason, rather than a new encode and branch that would start the file again.
        let source = video.device.map { SourceFormat(width: $0.activeFormat.width, height: $0.activeFormat.height, frameRate: $0.activeFrameRate,
                                                       pixelFormat: $0.activeFormat.pixelFormat) }
        let settings = state.withLock { state in
            Recording.Settings(url: url, container: container, codec: source.map(state.codecSettings.resolved(for:)) ?? state.codecSettings,
                               fragmentInterval: state.fragmentInterval, maxDuration: state.maxDuration, maxFileSize: state.maxFileSize,
                               minFreeDiskSpace: state.minFreeDiskSpace, orientation: orientation, mirrored: mirrored)
        }
        if settings.minFreeDiskSpace > 0 {
            let free = Recording.freeBytes(at: url)
            if free < settings.minFreeDiskSpace { throw .diskFull(url, freeBytes: free, limit: settings.minFreeDiskSpace, finished: false) }
        }
        return Recording(settings: settings, delegate: delegate, queue: queue, connections: connections,
                         onStart: { [weak self] recording in
                             guard let self else { return }
                             recording.queue.async { recording.delegate.value.fileOutput(self, didStartRecordingTo: url, from: recording.connections) }
                         },
                         onLimit: { [weak self] recording in self?.end(recording) },
                         onResume: { [weak self] recording, paused in
                             for pad in recording.pads.withLock({ $0.muxerInputs }) { pad.offset = -Int64(paused) }
                             guard let self else { return }
                             recording.queue.async { recording.delegate.value.fileOutput(self, didResumeRecordingTo: url, from: recording.connections) }
                         })
    }
}
