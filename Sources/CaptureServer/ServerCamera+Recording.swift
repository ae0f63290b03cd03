import CaptureKit
import Foundation

extension ServerCamera {
    /// What `/api/record/start` and `/api/record/stop` answer, and `/api/state` shows.
    struct RecordingStatus: Encodable, Sendable {
        var recording: Bool
        var name: String?
        var url: String?
        /// Seconds recorded so far (or in all, once stopped).
        var duration: Double?
        /// Bytes written so far (or in all).
        var size: Int64?
    }

    /// The recording now, if any.
    var recordingStatus: RecordingStatus {
        guard let job = state.withLock({ $0.recording }), !job.isFinished else { return RecordingStatus(recording: false) }
        return RecordingStatus(recording: true, name: job.name, url: "/recordings/\(job.name)",
                               duration: movie.recordedDuration.seconds, size: movie.recordedFileSize)
    }

    /// Starts recording into a new timestamped `.mp4` in the recordings folder; returns once the
    /// first frame is in it. Throws `recordingInProgress` (409) while one runs, and 503 when
    /// the process has too few file descriptors left to record. Record commands run one at a
    /// time, in the order they came (``recordCommands``): a stop sent while a start is under
    /// way stops the recording that start began.
    func startRecording() async throws -> RecordingStatus {
        try await recordCommands.run { [self] in try await beginRecording() }
    }

    /// Stops the recording and returns once its file is complete. Throws `notRecording` (409)
    /// when there is none. After every record command before it.
    func stopRecording() async throws -> RecordingStatus {
        try await recordCommands.run { [self] in try await endRecording() }
    }

    private func beginRecording() async throws -> RecordingStatus {
        try FileDescriptorBudget.require(for: "start a recording")
        let job = RecordingJob(url: recordings.newRecordingURL())
        let claimed = state.withLock { state -> Bool in
            if let current = state.recording, !current.isFinished { return false }
            state.recording = job
            return true
        }
        guard claimed else {
            throw APIError.conflict("recordingInProgress", "a recording is in progress (\(state.withLock { $0.recording?.name } ?? "")); stop it first with POST /api/record/stop")
        }
        guard state.withLock({ $0.running }) else {
            state.withLock { $0.recording = nil }
            throw CaptureError.sessionNotRunning
        }
        movie.startRecording(to: job.url, recordingDelegate: job)
        if let error = await job.waitUntilStarted() {
            state.withLock { if $0.recording === job { $0.recording = nil } }
            throw error
        }
        return RecordingStatus(recording: true, name: job.name, url: "/recordings/\(job.name)", duration: 0, size: 0)
    }

    private func endRecording() async throws -> RecordingStatus {
        guard let job = state.withLock({ $0.recording }), !job.isFinished else {
            throw APIError.conflict("notRecording", "no recording is in progress; start one with POST /api/record/start")
        }
        let duration = movie.recordedDuration.seconds
        movie.stopRecording()
        let error = await job.waitUntilFinished()
        state.withLock { if $0.recording === job { $0.recording = nil } }
        if let error, !error.recordingSuccessfullyFinished { throw error }
        let size = (try? FileManager.default.attributesOfItem(atPath: job.url.path)[.size] as? NSNumber)?.int64Value
        return RecordingStatus(recording: false, name: job.name, url: "/recordings/\(job.name)", duration: duration, size: size)
    }
}
