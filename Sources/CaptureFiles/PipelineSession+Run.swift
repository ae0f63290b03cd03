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
    /// - `frames: N` stops once every `videoData` output has handled N frames (later frames are
    ///   ignored) and every still has been taken; the stills are spread over N frame durations.
    ///   `seconds: S` stops after S seconds, once every still has been taken.
    ///
    /// Relative paths are resolved against `directory`, which is created if needed; absolute
    /// paths are used as written.
    /// - Parameters:
    ///   - directory: Where relative output paths are written.
    ///   - timeout: How long the run may take before it fails; by default the run's expected
    ///     length (S seconds, or N frames at the slowest input's frame rate) plus ``timeoutMargin``.
    /// - Returns: What each output did, the files written and how long the session ran.
    /// - Throws: ``PipelineRunError`` when the session cannot start, fails while running, a still
    ///   fails, a file cannot be written, the run times out, or the task is cancelled. The session
    ///   is stopped whenever this returns or throws.
    public func run(writingTo directory: URL, timeout: Duration? = nil) async throws(PipelineRunError) -> PipelineRunReport {
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
        var codeCollectors: [PipelineMetadataCollector] = []
        for (index, output) in file.outputs.enumerated() {
            guard case .metadata(let spec) = output, let metadata = outputs[index] as? MetadataOutput else { continue }
            let collector = PipelineMetadataCollector(index: index, spec: spec, directory: directory, monitor: monitor)
            metadata.setMetadataObjectsDelegate(collector, queue: collector.queue)
            codeCollectors.append(collector)
        }
        let observer = NotificationCenter.default.addObserver(
            forName: CaptureSession.runtimeErrorNotification, object: session, queue: nil
        ) { notification in
            let error = notification.userInfo?[CaptureSession.errorKey] as? CaptureError
                ?? .pipelineFailed(element: nil, message: "unknown runtime error")
            monitor.fail(.capture(error, during: "the running pipeline"))
        }
        defer {
            NotificationCenter.default.removeObserver(observer)
            for case let data as VideoDataOutput in outputs { data.setSampleBufferDelegate(nil, queue: nil) }
            for case let metadata as MetadataOutput in outputs { metadata.setMetadataObjectsDelegate(nil, queue: nil) }
        }

        do {
            try await session.startRunning()
        } catch {
            throw .capture(error, during: "starting the session")
        }
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
                directory: directory,
                monitor: monitor
            )
        } catch {
            failure = error
        }
        let duration = clock.now - start
        monitor.finish()
        await session.stopRunning()
        for queue in collectors.map(\.queue) + codeCollectors.map(\.queue) {
            await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        }
        withExtendedLifetime((collectors, codeCollectors)) {}
        if let error = monitor.failure ?? failure { throw error }
        return report(duration: duration, progress: monitor.progress)
    }

    /// The run's expected length: its seconds, or its frames at the slowest input's rate.
    var expectedLength: Duration {
        switch file.run {
        case .seconds(let seconds):
            return Self.duration(seconds: seconds)
        case .frames(let count):
            let rates = file.inputs.indices.compactMap { plannedFrameRate(ofInputAt: $0) }
            return Self.duration(seconds: Double(count) / max(rates.min() ?? 1, 0.1))
        }
    }

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
                    // Not counted: it only ends the run early, when a failure is recorded.
                    group.addTask { try await monitor.waitForFrames(of: videoDataIndices) }
                } else {
                    group.addTask { try await monitor.waitForFrames(of: videoDataIndices) }
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
                    await session.stopRunning()
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
            case .metadata:
                return nil
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
                codes: progress[index].codes
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
