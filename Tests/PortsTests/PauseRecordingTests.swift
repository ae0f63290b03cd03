import CaptureKit
import Foundation
import Testing

/// `pauseRecording()`/`resumeRecording()` on a movie with sound, judged by ffprobe.
extension SharedDevices {
    @Suite("Pausing a recording", .serialized)
    struct PauseRecordingTests {
        final class Events: FileOutputRecordingDelegate {
            let seen = Found()
            func fileOutput(_ output: FileOutput, didStartRecordingTo fileURL: URL, from connections: [CaptureConnection]) { seen.add("start") }
            func fileOutput(_ output: FileOutput, didPauseRecordingTo fileURL: URL, from connections: [CaptureConnection]) { seen.add("pause") }
            func fileOutput(_ output: FileOutput, didResumeRecordingTo fileURL: URL, from connections: [CaptureConnection]) { seen.add("resume") }
            func fileOutput(_ output: FileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [CaptureConnection], error: Error?) {
                seen.add(error.map { "finish \($0)" } ?? "finish")
            }
        }

        @Test("1 s recorded, 1.2 s paused, 1 s recorded: a 2 s file whose video and audio run on without a gap")
        func pauseAndResume() async throws {
            let session = CaptureSession()
            session.sessionPreset = .vga640x480
            session.addInput(try CaptureDeviceInput(device: try #require(CaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))))
            session.addInput(try CaptureDeviceInput(device: try #require(CaptureDevice.default(for: .audio))))
            let movie = MovieFileOutput()
            session.addOutput(movie)
            session.startRunning()
            defer { session.stopRunning() }
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("paused-\(UUID().uuidString).mp4")
            defer { try? FileManager.default.removeItem(at: url) }
            let events = Events()
            movie.startRecording(to: url, recordingDelegate: events)
            _ = await events.seen.wait { $0.contains("start") }
            try await Task.sleep(for: .seconds(1))
            movie.pauseRecording()
            #expect(movie.isRecordingPaused && movie.isRecording)
            let atPause = movie.recordedDuration.seconds
            try await Task.sleep(for: .milliseconds(1200))
            #expect(abs(movie.recordedDuration.seconds - atPause) < 0.15, "the pause adds nothing: \(atPause) → \(movie.recordedDuration.seconds)")
            movie.resumeRecording()
            _ = await events.seen.wait { $0.contains("resume") }
            #expect(!movie.isRecordingPaused)
            try await Task.sleep(for: .seconds(1))
            movie.stopRecording()
            let seen = await events.seen.wait { $0.contains { $0.hasPrefix("finish") } }
            #expect(seen == ["start", "pause", "resume", "finish"])

            let (_, format) = try Tools.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", url.path])
            let duration = try #require(Double(format.trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(abs(duration - 2.0) < 0.4, "about 2 s, not 3.2: \(duration)")
            for stream in ["v", "a"] {
                let (_, packets) = try Tools.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", "packet=pts_time",
                                                                     "-of", "csv=p=0", url.path])
                let times = packets.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.sorted()
                let gap = zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0
                #expect(times.count > 10 && gap < 0.15, "\(stream): \(times.count) packets, largest gap \(gap) s")
                #expect((times.last ?? 0) > 1.6, "\(stream) runs to the end: \(times.last ?? 0)")
            }
        }
    }
}
