import Foundation
import Testing
@testable import CaptureKit

/// What a recording does around the rest of the session: limits, orientation, other outputs
/// coming and going, a still meanwhile, the session stopping, misuse, and a file copied
/// mid-recording (what a crash leaves).
@Suite("Movie recording behaviour", .ownDevices, .serialized)
struct MovieRecordingBehaviourTests {
    @Test("maxRecordedDuration ends the recording by itself: the reason says so, the file is complete and lasts the limit")
    func durationLimit() async throws {
        let movie = MovieFileOutput()
        movie.maxRecordedDuration = CaptureTime(value: 1, timescale: 1)
        let test = try MovieFileOutputTests.session(outputs: [movie])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let url = try temporaryDirectory().appendingPathComponent("limit.mp4")
        let events = RecordingEvents()
        movie.startRecording(to: url, recordingDelegate: events)
        let error = try await events.finishError(within: 10)
        #expect(error.code == .maximumDurationReached)
        #expect(error.recordingSuccessfullyFinished)
        let probe = try MovieProbe(url.path)
        let video = try #require(probe.video)
        #expect(video.frames == 30, "\(video.frames) frames in a 1 s recording at 30 fps")
        #expect(abs(probe.duration - 1) <= 1.0 / 30 + 0.025, "file lasts \(probe.duration) s")
    }

    @Test("maxRecordedFileSize ends the recording below the limit, with a playable file")
    func sizeLimit() async throws {
        let movie = MovieFileOutput()
        let limit: Int64 = 150_000
        movie.maxRecordedFileSize = limit
        let test = try MovieFileOutputTests.session(outputs: [movie])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let url = try temporaryDirectory().appendingPathComponent("size.mov")
        let events = RecordingEvents()
        movie.startRecording(to: url, recordingDelegate: events)
        let error = (try await events.finishError(within: 20))
        #expect(error.code == .maximumFileSizeReached)
        #expect(error.recordingSuccessfullyFinished)
        let probe = try MovieProbe(url.path)
        #expect(probe.size <= Int(limit), "\(probe.size) bytes for a \(limit)-byte limit")
        #expect(probe.size >= Int(limit) * 6 / 10, "\(probe.size) bytes: stopped far short of the \(limit)-byte limit")
        #expect(try #require(probe.video).frames > 10)
    }

    @Test("a portrait connection records unrotated pixels with a display matrix: ffprobe reads rotation -90")
    func portrait() async throws {
        let (url, _, _) = try await MovieFileOutputTests.record("mp4", seconds: 0.5, audio: false, configure: { _ in }, connection: { connection in
            connection.videoOrientation = .portrait
        })
        let probe = try MovieProbe(url.path)
        let video = try #require(probe.video)
        #expect(video.width == 640 && video.height == 480, "pixels stay as the sensor gives them")
        #expect(video.rotation == -90, "display matrix rotation \(String(describing: video.rotation))")
        #expect(probe.audio == nil)
    }

    @Test("a mirrored connection records unmirrored pixels and a matrix that ffmpeg shows as their mirror image")
    func mirrored() async throws {
        let (url, _, _) = try await MovieFileOutputTests.record("mp4", seconds: 0.5, audio: false, configure: { _ in }, connection: { connection in
            connection.automaticallyAdjustsVideoMirroring = false
            connection.isVideoMirrored = true
        })
        let directory = url.deletingLastPathComponent()
        func frame(_ name: String, _ options: [String], filter: [String] = []) throws -> Data {
            let out = directory.appendingPathComponent(name)
            try run("/usr/bin/ffmpeg", ["-v", "error", "-y"] + options + ["-i", url.path, "-frames:v", "1"] + filter
                    + ["-f", "rawvideo", "-pix_fmt", "gray", out.path])
            return try Data(contentsOf: out)
        }
        let shown = try frame("shown.gray", []), stored = try frame("stored.gray", ["-noautorotate"])
        let flipped = try frame("flipped.gray", ["-noautorotate"], filter: ["-vf", "hflip"])
        try #require(shown.count == 640 * 480 && stored.count == shown.count && flipped.count == shown.count)
        #expect(shown == flipped, "a player shows the stored picture mirrored")
        #expect(shown != stored, "the stored pixels are not mirrored")
    }

    @Test("a still, and other outputs added and removed, during a recording: one continuous file, and the video data output never skips")
    func busySession() async throws {
        let movie = MovieFileOutput(), frames = VideoDataOutput(), still = StillImageOutput()
        let log = LiveRuntimeTests.FrameLog(frames)
        let test = try MovieFileOutputTests.session(outputs: [frames, still, movie])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try await log.waitForFrames(5)
        let url = try temporaryDirectory().appendingPathComponent("busy.mp4")
        let events = RecordingEvents()
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(await waitFor(within: 10) { movie.recordedDuration.seconds >= 0.2 }, "recording")
        let photo = try await still.captureStillImage(from: try #require(still.connection(with: .video)))
        #expect(photo.formatDescription.width == 640)
        for _ in 0..<3 {
            let metadata = MetadataOutput(), audio = AudioDataOutput()
            test.session.beginConfiguration()
            try test.session.checked.addOutput(metadata)
            try test.session.checked.addOutput(audio)
            try test.session.checked.commitConfiguration()
            try await Task.sleep(for: .milliseconds(150))
            test.session.beginConfiguration()
            try test.session.checked.removeOutput(metadata)
            try test.session.checked.removeOutput(audio)
            try test.session.checked.commitConfiguration()
            try await Task.sleep(for: .milliseconds(150))
        }
        #expect(movie.isRecording)
        movie.stopRecording()
        #expect(try #require(await events.finished(within: 10)) == nil)
        #expect(events.all.count == 2)
        let (largest, backwards) = log.steps(interval: LiveRuntimeTests.interval)
        #expect(backwards == 0)
        #expect(largest <= 1.5, "largest presentation-time step of the video data output: \(largest) frame intervals")
        let gaps = try Self.largestFrameGap(url.path)
        #expect(gaps <= 1.5 / 30, "largest step between the file's frames: \(gaps) s")
        let probe = try MovieProbe(url.path)
        #expect(abs(Double(try #require(probe.video).frames) / 30 - movie.recordedDuration.seconds) <= 1.0 / 30 + 1e-6)
    }

    @Test("stopping the session finishes the recording: did-finish says the session stopped and the file is complete")
    func sessionStops() async throws {
        let movie = MovieFileOutput()
        let test = try MovieFileOutputTests.session(outputs: [movie])
        try await test.session.checked.startRunning()
        let url = try temporaryDirectory().appendingPathComponent("stopped.mkv")
        let events = RecordingEvents()
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(await waitFor(within: 10) { movie.recordedDuration.seconds >= 0.6 }, "recording")
        await test.session.checked.stopRunning()
        let error = (try await events.finishError(within: 10))
        #expect(error.code == .sessionStopped)
        #expect(error.recordingSuccessfullyFinished)
        #expect(!movie.isRecording)
        #expect(try #require(try MovieProbe(url.path).video).frames >= 15)
    }

    @Test("a recording stopped before its first frame ends with noDataCaptured naming the file, and leaves no file", arguments: ["mp4", "mkv"])
    func stoppedBeforeFirstFrame(ext: String) async throws {
        let movie = MovieFileOutput()
        let test = try MovieFileOutputTests.session(outputs: [movie])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let url = try temporaryDirectory().appendingPathComponent("empty.\(ext)")
        let events = RecordingEvents()
        // Stopped at once: the recording's encoder has not made its first key frame yet.
        movie.startRecording(to: url, recordingDelegate: events)
        movie.stopRecording()
        let error = try await events.finishError(within: 10)
        try #require(!events.all.contains(.started(url)), "a frame was recorded before the stop: \(events.all)")
        #expect(error.code == .noDataCaptured && error.value == url.path && !error.recordingSuccessfullyFinished, "\(error)")
        #expect(error.message.contains(url.path), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(!movie.isRecording)
        // The output records again.
        let next = url.deletingLastPathComponent().appendingPathComponent("next.\(ext)")
        let again = RecordingEvents()
        movie.startRecording(to: next, recordingDelegate: again)
        #expect(try await again.started(within: 10))
        movie.stopRecording()
        #expect(await again.finished(within: 10) == .some(nil))
        #expect(try #require(try MovieProbe(next.path).video).frames >= 1)
    }

    @Test("misuse is reported through did-finish with a typed error naming the value: extension, existing file, session not running")
    func misuse() async throws {
        let movie = MovieFileOutput()
        let test = try MovieFileOutputTests.session(audio: false, outputs: [movie])
        let directory = try temporaryDirectory()
        let events = RecordingEvents()
        movie.startRecording(to: directory.appendingPathComponent("a.mp4"), recordingDelegate: events)
        #expect((try await events.finishError(within: 5)).code == .sessionNotRunning)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let avi = RecordingEvents()
        movie.startRecording(to: directory.appendingPathComponent("a.avi"), recordingDelegate: avi)
        let aviError = (try await avi.finishError(within: 5))
        #expect(aviError.code == .unsupportedFileType)
        #expect(aviError.message.contains("'avi'") && aviError.message.contains(".mp4, .mov, .mkv"), "\(aviError.message)")
        let existing = directory.appendingPathComponent("there.mp4")
        try Data("keep".utf8).write(to: existing)
        let exists = RecordingEvents()
        movie.startRecording(to: existing, recordingDelegate: exists)
        #expect((try await exists.finishError(within: 5)).code == .fileAlreadyExists)
        #expect(try Data(contentsOf: existing) == Data("keep".utf8))
        movie.minFreeDiskSpaceLimit = Int64.max / 2
        let full = RecordingEvents()
        movie.startRecording(to: directory.appendingPathComponent("full.mp4"), recordingDelegate: full)
        let fullError = (try await full.finishError(within: 5))
        #expect(fullError.code == .diskFull)
        #expect(!movie.isRecording)
        movie.stopRecording()
        let connection = try #require(movie.connection(with: .video))
        #expect(throws: CaptureError.self) { try movie.setOutputSettings(VideoCodecSettings(codec: .jpeg), for: connection) }
        #expect(throws: CaptureError.self) { try movie.setOutputSettings(VideoCodecSettings(bitrate: 5), for: connection) }
    }

    @Test("a copy of the file taken mid-recording (what a crash leaves) plays everything up to its last fragment")
    func fragmentsSurviveACrash() async throws {
        let movie = MovieFileOutput()
        movie.movieFragmentInterval = CaptureTime(value: 1, timescale: 2)
        let test = try MovieFileOutputTests.session(outputs: [movie])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let directory = try temporaryDirectory()
        let url = directory.appendingPathComponent("live.mp4"), copy = directory.appendingPathComponent("crash.mp4")
        let events = RecordingEvents()
        movie.startRecording(to: url, recordingDelegate: events)
        try await Task.sleep(for: .milliseconds(2200))
        let recorded = movie.recordedDuration.seconds
        try FileManager.default.copyItem(at: url, to: copy)
        let synced = movie.fragmentSyncStats?.fragments ?? 0
        movie.stopRecording()
        _ = await events.finished(within: 10)
        let probe = try MovieProbe(copy.path)
        let frames = try #require(probe.video).frames
        #expect(Double(frames) / 30 >= recorded - 0.5 - 0.2, "\(frames) frames survive of \(recorded) s recorded with 0.5 s fragments")
        #expect(synced >= 2, "\(synced) fragments flushed to disk in \(recorded) s of 0.5 s fragments")
    }

    @Test("one output records several files in a row on a running session")
    func recordingsInARow() async throws {
        let movie = MovieFileOutput()
        let test = try MovieFileOutputTests.session(audio: true, outputs: [movie])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let directory = try temporaryDirectory()
        for index in 0..<3 {
            let url = directory.appendingPathComponent("take\(index).mp4")
            let events = RecordingEvents()
            movie.startRecording(to: url, recordingDelegate: events)
            #expect(await waitFor(within: 10) { movie.recordedDuration.seconds >= 0.35 }, "take \(index) recording")
            movie.stopRecording()
            #expect(await events.finished(within: 10) == .some(nil), "take \(index): \(events.all)")
            #expect(try #require(try MovieProbe(url.path).video).frames >= 9)
        }
        #expect(test.session.isRunning)
    }

    @Test("a camera unplugged during a recording finishes the file with what came before; the reason names the device")
    func deviceGone() async throws {
        let movie = MovieFileOutput()
        let test = try MovieFileOutputTests.session(audio: false, outputs: [movie])
        let device = test.input.device
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning(); try? device.injectFault(nil) }
        let url = try temporaryDirectory().appendingPathComponent("unplugged.mp4")
        let events = RecordingEvents()
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(await waitFor(within: 10) { movie.recordedDuration.seconds >= 0.65 }, "recording")
        try device.injectFault(.unplugged)
        let error = try await events.finishError(within: 10)
        #expect(error.code == .deviceUnavailable)
        #expect(error.recordingSuccessfullyFinished)
        #expect(error.message.contains(device.uniqueID))
        let frames = try #require(try MovieProbe(url.path).video).frames
        #expect(frames >= 18, "\(frames) frames kept of ~0.8 s before the unplug")
    }

    @Test("switching to another camera of the same format during a recording continues the same file")
    func cameraSwitch() async throws {
        let movie = MovieFileOutput()
        let test = try MovieFileOutputTests.session(audio: false, outputs: [movie])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let url = try temporaryDirectory().appendingPathComponent("switch.mp4")
        let events = RecordingEvents()
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(await waitFor(within: 10) { movie.recordedDuration.seconds >= 0.5 }, "recording")
        let front = try CaptureDeviceInput(device: CaptureDevice.find(virtual: .front))
        test.session.beginConfiguration()
        try test.session.checked.removeInput(test.input)
        try test.session.checked.addInput(front)
        try test.session.checked.commitConfiguration()
        let switched = movie.recordedDuration.seconds
        #expect(await waitFor(within: 10) { movie.recordedDuration.seconds >= switched + 0.6 }, "the front camera's frames recorded")
        #expect(movie.isRecording, "the switch did not end the recording")
        movie.stopRecording()
        #expect(await events.finished(within: 10) == .some(nil))
        #expect(events.all.count == 2)
        let gap = try Self.largestFrameGap(url.path)
        #expect(gap <= 2.0 / 30 + 1e-3, "largest step between the file's frames across the switch: \(gap) s")
        #expect(Double(try #require(try MovieProbe(url.path).video).frames) / 30 >= 1.0)
    }

    @Test("a format change during a recording ends it with a reason, the file playable; the session and the other outputs run on")
    func formatChange() async throws {
        let movie = MovieFileOutput(), frames = VideoDataOutput()
        let log = LiveRuntimeTests.FrameLog(frames)
        let test = try MovieFileOutputTests.session(audio: false, outputs: [frames, movie])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let url = try temporaryDirectory().appendingPathComponent("resized.mp4")
        let events = RecordingEvents()
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(await waitFor(within: 10) { movie.recordedDuration.seconds >= 0.5 }, "recording")
        try test.session.setSessionPreset(.cif352x288)
        let error = try await events.finishError(within: 10)
        #expect(error.code == .formatChanged && error.recordingSuccessfullyFinished, "\(error)")
        #expect(error.message.contains("640x480") && error.message.contains("352x288"), "\(error.message)")
        let video = try #require(try MovieProbe(url.path).video)
        #expect(video.width == 640 && video.frames >= 15, "\(video.frames) frames of 640x480 kept")
        let count = log.count
        try await log.waitForFrames(count + 10)
        #expect(test.session.isRunning)
    }

    /// The largest step between consecutive video frames' presentation times in a file (seconds).
    static func largestFrameGap(_ path: String) throws -> Double {
        let output = try run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", path])
        let times = output.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.sorted()
        return zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? .infinity
    }
}
