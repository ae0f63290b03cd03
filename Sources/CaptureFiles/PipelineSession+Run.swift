import CaptureKit
import Foundation

/// Running a pipeline file's session.
extension PipelineSession {
    /// The extra time a run gets beyond its expected length before it times out.
    public static let timeoutMargin = Duration.seconds(10)

    /// Starts the session, does what the file's outputs ask until the file's `run` condition
    /// holds, stops the session and reports what happened.
    ///
    /// - A `still` output takes `count` stills spread evenly over the run (the first at once),
    ///   writing each JPEG (with EXIF) or raw frame to its path with `{n}` replaced by the 1-based
    ///   still number.
    /// - A `videoData` output's frames are handled one at a time on a queue of their own:
    ///   `count` counts them, `dump` writes each frame's bytes to its path (one file per frame
    ///   with `{n}`, otherwise all frames appended to one file), `stats` measures each frame's
    ///   mean luma. With `discardLate`, frames arriving while the previous one is handled are
    ///   dropped and counted as dropped.
    /// - A `metadata` output records each code the first time it is seen (`type value`), writing
    ///   it as a JSON line to its path when it has one.
    /// - An `audioData` output's sample buffers are handled one at a time on a queue of their
    ///   own, up to its `count` when it has one (later buffers are ignored): counted, and with
    ///   `write` appended to a WAV file (16-bit PCM or 32-bit float as delivered) whose header
    ///   gets the real length when the run ends. Buffers the output dropped because its
    ///   delegate queue was full are counted as dropped.
    /// - A `movie` output records from the start of the run to its end, or until its
    ///   `maxDuration` or `maxSize` ends the recording first. A recording that fails fails the
    ///   run.
    /// - `frames: N` stops once every `videoData` output has handled N frames (later frames are
    ///   ignored), every still has been taken and every `audioData` output with a `count` has
    ///   its buffers; the stills are spread over N frame durations. `seconds: S` stops after S
    ///   seconds, once every still has been taken and every `audioData` count reached.
    ///
    /// Relative paths are resolved against `directory`, which is created if needed. Before the
    /// session starts, every path the file writes is checked to stay inside `directory`
    /// (symbolic links followed), and, unless `replacingExistingFiles`, to name no file that
    /// exists: see ``PipelineFile/checkOutputPaths(in:replacingExistingFiles:)``.
    /// - Parameters:
    ///   - directory: Where relative output paths are written; no path may lead out of it.
    ///   - replacingExistingFiles: Whether files that exist are replaced (`capture run --force`);
    ///     otherwise they fail the run before it starts.
    ///   - timeout: How long the run may take before it fails; by default the run's expected
    ///     length (S seconds, or N frames at the slowest input's frame rate, and at least an
    ///     `audioData` count's buffers at 10 ms each) plus ``timeoutMargin``.
    /// - Returns: What each output did, the files written and how long the session ran.
    /// - Throws: ``PipelineRunError`` when a path is unsafe or names an existing file
    ///   (``PipelineRunError/unsafePath(_:)``), the session cannot start, fails while running, a still
    ///   fails, a file cannot be written, the run times out, or the task is cancelled. The session
    ///   is stopped whenever this returns or throws.
    public func run(writingTo directory: URL, replacingExistingFiles: Bool = false, timeout: Duration? = nil)
        async throws(PipelineRunError) -> PipelineRunReport
    {
        do {
            try file.checkOutputPaths(in: directory, replacingExistingFiles: replacingExistingFiles)
        } catch {
            throw .unsafePath(error)
        }
        let frameTarget: Int? = if case .frames(let count) = file.run { count } else { nil }
        let limit = timeout ?? expectedLength + Self.timeoutMargin
        let monitor = PipelineRunMonitor(outputCount: outputs.count, frameTarget: frameTarget)
        try PipelineRunFiles.createDirectory(directory)

        var collectors: [PipelineFrameCollector] = []
        var videoDataIndices: [Int] = []
        for (index, output) in file.outputs.enumerated() {
            guard case .videoData(let spec) = output, let data = outputs[index] as? VideoDataOutput else { continue }
            let collector = PipelineFrameCollector(index: index, spec: spec, directory: directory, monitor: monitor)
            data.setSampleBufferDelegate(collector, queue: collector.queue)
            collectors.append(collector)
            videoDataIndices.append(index)
        }
        var audioCollectors: [(index: Int, collector: PipelineAudioCollector)] = []
        var audioGoals: [(output: Int, count: Int)] = []
        var droppedBefore: [Int: Int] = [:]
        for (index, output) in file.outputs.enumerated() {
            guard case .audioData(let spec) = output, let audio = outputs[index] as? AudioDataOutput else { continue }
            let collector = PipelineAudioCollector(index: index, spec: spec, directory: directory, monitor: monitor)
            audio.setSampleBufferDelegate(collector, queue: collector.queue)
            audioCollectors.append((index, collector))
            if let count = spec.count { audioGoals.append((index, count)) }
            droppedBefore[index] = audio.droppedSampleBufferCount
        }
        var codeCollectors: [PipelineMetadataCollector] = []
        for (index, output) in file.outputs.enumerated() {
            guard case .metadata(let spec) = output, let metadata = outputs[index] as? MetadataOutput else { continue }
            let collector = PipelineMetadataCollector(index: index, spec: spec, directory: directory, monitor: monitor)
            metadata.setMetadataObjectsDelegate(collector, queue: collector.queue)
            codeCollectors.append(collector)
        }
        var segmentRecorders: [PipelineSegmentRecorder] = []
        for (index, output) in file.outputs.enumerated() {
            guard case .movie(let spec) = output, let segments = outputs[index] as? SegmentedMovieFileOutput else { continue }
            let recorder = PipelineSegmentRecorder(index: index, spec: spec, output: segments, directory: directory, monitor: monitor)
            try recorder.prepare()
            segmentRecorders.append(recorder)
        }
        var movieRecorders: [PipelineMovieRecorder] = []
        for (index, output) in file.outputs.enumerated() {
            guard case .movie(let spec) = output, let movie = outputs[index] as? MovieFileOutput else { continue }
            let recorder = PipelineMovieRecorder(index: index, spec: spec, output: movie, directory: directory, monitor: monitor)
            try recorder.prepare()
            movieRecorders.append(recorder)
        }
        let observer = NotificationCenter.default.addObserver(
            forName: CaptureSession.runtimeErrorNotification, object: session, queue: nil
        ) { notification in
            // A caller or publisher whose peer went away calls again by itself: the run goes on.
            if let stream = notification.userInfo?[CaptureSession.outputKey] as? StreamOutput, stream.target.reconnects { return }
            let error = notification.userInfo?[CaptureSession.errorKey] as? CaptureError
                ?? .pipelineFailed(element: nil, message: "unknown runtime error")
            monitor.fail(.capture(error, during: "the running pipeline"))
        }
        defer {
            NotificationCenter.default.removeObserver(observer)
            for case let data as VideoDataOutput in outputs { data.setSampleBufferDelegate(nil, queue: nil) }
            for case let metadata as MetadataOutput in outputs { metadata.setMetadataObjectsDelegate(nil, queue: nil) }
            for case let audio as AudioDataOutput in outputs { audio.setSampleBufferDelegate(nil, queue: nil) }
        }

        do {
            try await session.checked.startRunning()
        } catch {
            throw .capture(error, during: "starting the session")
        }
        for recorder in movieRecorders { recorder.start() }
        for recorder in segmentRecorders { recorder.start() }
        let clock = ContinuousClock()
        let start = clock.now
        var failure: PipelineRunError?
        do {
            try await perform(
                start: start,
                deadline: start + limit,
                limit: limit,
                frameTarget: frameTarget,
                videoDataIndices: videoDataIndices,
                audioGoals: audioGoals,
                directory: directory,
                monitor: monitor
            )
        } catch {
            failure = error
        }
        for recorder in movieRecorders { await recorder.stop() }
        for recorder in segmentRecorders { await recorder.stop() }
        for (index, output) in outputs.enumerated() {
            if let preview = output as? VideoPreview { monitor.streamed(output: index, frames: preview.framesShown, dropped: 0) }
            guard let stream = output as? StreamOutput else { continue }
            monitor.streamed(output: index, frames: stream.statistics.framesSent, dropped: stream.statistics.framesDropped)
        }
        let duration = clock.now - start
        monitor.finish()
        await session.checked.stopRunning()
        for queue in collectors.map(\.queue) + codeCollectors.map(\.queue) + audioCollectors.map(\.collector.queue) {
            await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        }
        withExtendedLifetime((collectors, codeCollectors)) {}
        for (index, before) in droppedBefore {
            guard let audio = outputs[index] as? AudioDataOutput else { continue }
            monitor.setDropped(output: index, audio.droppedSampleBufferCount - before)
        }
        let runFailure = monitor.failure ?? failure
        let finishFailure = finishAudio(audioCollectors, createEmpty: runFailure == nil)
        if let error = runFailure ?? finishFailure { throw error }
        return report(duration: duration, progress: monitor.progress)
    }

    /// Completes each `audioData` output's WAV file, writing an empty one for an output that
    /// had no audio when `createEmpty`; returns the first failure.
    private func finishAudio(_ collectors: [(index: Int, collector: PipelineAudioCollector)], createEmpty: Bool) -> PipelineRunError? {
        var failure: PipelineRunError?
        for (index, collector) in collectors {
            do {
                try collector.finish(expectedFormat: createEmpty ? expectedAudioFormat(ofOutputAt: index) : nil)
            } catch {
                failure = failure ?? error
            }
        }
        return failure
    }

    /// The format an `audioData` output delivers: its connected device's active format, with
    /// the output's settings applied; nil when it is not connected to a microphone.
    func expectedAudioFormat(ofOutputAt index: Int) -> AudioFormat? {
        guard let device = connections[index].inputPorts.first(where: { $0.mediaType == .audio })?.device,
              var format = device.activeFormat.audioFormat else { return nil }
        if let settings = (outputs[index] as? AudioDataOutput)?.audioSettings {
            format.sampleRate = settings.sampleRate ?? format.sampleRate
            format.channelCount = settings.channelCount ?? format.channelCount
            format.sampleFormat = settings.sampleFormat ?? format.sampleFormat
        }
        return format
    }

    /// The run's expected length: its seconds, or its frames at the slowest input's rate; at
    /// least the largest `audioData` count at 10 ms a buffer (the virtual microphone's).
    var expectedLength: Duration {
        let audioSeconds = file.outputs.compactMap { output -> Double? in
            guard case .audioData(let spec) = output, let count = spec.count else { return nil }
            return Double(count) * Self.audioBufferSeconds
        }.max() ?? 0
        switch file.run {
        case .seconds(let seconds):
            return Self.duration(seconds: max(seconds, audioSeconds))
        case .frames(let count):
            let rates = file.inputs.indices.compactMap { plannedFrameRate(ofInputAt: $0) }
            return Self.duration(seconds: max(Double(count) / max(rates.min() ?? 1, 0.1), audioSeconds))
        }
    }

    /// The length of a microphone's sample buffer the expected length assumes: the virtual
    /// microphone's 10 ms.
    static let audioBufferSeconds = 0.01

    /// A duration of `seconds`, at most a year, so that absurd run lengths cannot overflow.
    static func duration(seconds: Double) -> Duration {
        .seconds(min(seconds, 365 * 24 * 3600))
    }

    /// Takes the stills and waits for the stopping condition, racing the deadline; on any failure
    /// stops the session first, so that no still waits for a frame that will not come.
    private func perform(
        start: ContinuousClock.Instant,
        deadline: ContinuousClock.Instant,
        limit: Duration,
        frameTarget: Int?,
        videoDataIndices: [Int],
        audioGoals: [(output: Int, count: Int)],
        directory: URL,
        monitor: PipelineRunMonitor
    ) async throws(PipelineRunError) {
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var tasks = 0
                for (index, output) in file.outputs.enumerated() {
                    guard case .still(let spec) = output, let still = outputs[index] as? StillImageOutput else { continue }
                    let connection = connections[index]
                    let spacing = stillSpacing(count: spec.count, input: spec.connection.input)
                    group.addTask {
                        try await Self.takeStills(
                            spec, output: still, connection: connection, index: index, start: start,
                            spacing: spacing, directory: directory, monitor: monitor
                        )
                    }
                    tasks += 1
                }
                if case .seconds(let seconds) = file.run {
                    group.addTask { try await ContinuousClock().sleep(until: start + Self.duration(seconds: seconds)) }
                    tasks += 1
                    // Counted only with audio counts to reach; otherwise it only ends the run
                    // early, when a failure is recorded.
                    group.addTask { try await monitor.waitForFrames(of: videoDataIndices, counts: audioGoals) }
                    if !audioGoals.isEmpty { tasks += 1 }
                } else {
                    group.addTask { try await monitor.waitForFrames(of: videoDataIndices, counts: audioGoals) }
                    tasks += 1
                }
                group.addTask {
                    try await ContinuousClock().sleep(until: deadline)
                    throw PipelineRunError.timedOut(after: limit, waitingFor: self.unfinished(monitor.progress))
                }
                do {
                    while tasks > 0, try await group.next() != nil { tasks -= 1 }
                } catch {
                    monitor.finish()
                    await session.checked.stopRunning()
                    throw error
                }
                group.cancelAll()
            }
        } catch let error as PipelineRunError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// The time between a still output's stills: the run's length divided by the count.
    private func stillSpacing(count: Int, input: String) -> Duration {
        switch file.run {
        case .seconds(let seconds):
            return Self.duration(seconds: seconds / Double(count))
        case .frames(let frames):
            let index = file.inputs.firstIndex { $0.name == input } ?? 0
            let rate = plannedFrameRate(ofInputAt: index) ?? 30
            return Self.duration(seconds: Double(frames) / max(rate, 0.1) / Double(count))
        }
    }

    /// Takes `spec.count` stills, the nth at `start + n × spacing`, writing each to its path.
    private static func takeStills(
        _ spec: PipelineFile.StillSpec,
        output: StillImageOutput,
        connection: CaptureConnection,
        index: Int,
        start: ContinuousClock.Instant,
        spacing: Duration,
        directory: URL,
        monitor: PipelineRunMonitor
    ) async throws {
        for number in 1...spec.count {
            try await ContinuousClock().sleep(until: start + spacing * (number - 1))
            let data: Data
            do {
                let sample = try await output.captureStillImage(from: connection)
                if spec.format == .jpeg {
                    data = try StillImageOutput.jpegStillImageData(from: sample)
                } else {
                    data = try sample.withUnsafeBytes { Data($0) }
                }
            } catch {
                throw PipelineRunError.capture(
                    error as? CaptureError ?? .pipelineFailed(element: nil, message: "\(error)"),
                    during: "still output '\(spec.name)'"
                )
            }
            let url = PipelineRunFiles.resolve(spec.path(forIndex: number), in: directory)
            try PipelineRunFiles.write(data, to: url)
            monitor.completed(output: index, file: url.path)
        }
    }

    /// Each output that has not reached its goal, as `kind output 'name': done of goal unit`.
    private func unfinished(_ progress: [PipelineRunMonitor.OutputProgress]) -> [String] {
        file.outputs.enumerated().compactMap { index, output in
            let done = progress[index].count
            switch output {
            case .still(let spec):
                return done < spec.count ? "still output '\(spec.name)': \(done) of \(spec.count) stills" : nil
            case .videoData(let spec):
                guard case .frames(let target) = file.run, done < target else { return nil }
                return "videoData output '\(spec.name)': \(done) of \(target) frames"
            case .metadata, .movie, .stream, .preview:
                return nil
            case .audioData(let spec):
                guard let target = spec.count, done < target else { return nil }
                return "audioData output '\(spec.name)': \(done) of \(target) sample buffers"
            }
        }
    }

    /// The report of a finished run.
    private func report(duration: Duration, progress: [PipelineRunMonitor.OutputProgress]) -> PipelineRunReport {
        let results = file.outputs.enumerated().map { index, output in
            let action: PipelineFile.VideoDataAction? = if case .videoData(let spec) = output { spec.action } else { nil }
            return PipelineRunReport.OutputResult(
                name: output.name,
                kind: output.kindName,
                action: action,
                count: progress[index].count,
                droppedFrames: progress[index].dropped,
                files: progress[index].files,
                meanLuma: progress[index].meanLuma,
                codes: progress[index].codes,
                audioFrames: progress[index].audioFrames,
                audioFormat: progress[index].audioFormat,
                recordedSeconds: progress[index].recordedSeconds,
                warnings: progress[index].warnings
            )
        }
        return PipelineRunReport(
            fileName: file.runLocation.file,
            runLength: file.run,
            duration: duration,
            outputs: results
        )
    }
}
