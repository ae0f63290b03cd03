import CaptureKit
import Foundation

/// A segmented recording's events, as an async sequence the command waits on: each closed
/// segment, then the recording's end.
final class SegmentEvents: SegmentedMovieFileOutputDelegate {
    enum Event: Sendable {
        case finished(MovieSegment, MovieSegment.EndReason, CaptureError?)
        case recordingFinished(CaptureError?)
    }

    let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation

    private let log: @Sendable (String) -> Void
    private let printsEvents: Bool
    private let webhook: EventWebhook?

    /// `log` gets a line for each segment deleted; with `printsEvents`, each event's start and
    /// end is a JSON line on standard output, else each clip's path when it closes; `webhook`
    /// gets the same lines.
    init(log: @escaping @Sendable (String) -> Void, printsEvents: Bool, webhook: EventWebhook? = nil) {
        self.log = log
        self.printsEvents = printsEvents
        self.webhook = webhook
        (events, continuation) = AsyncStream<Event>.makeStream()
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didStartEvent event: RecordingEvent) {
        announce(event, phase: "start")
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinishEvent event: RecordingEvent) {
        announce(event, phase: "end")
        if !printsEvents, let clip = event.clip { FileHandle.standardOutput.write(Data((clip.path + "\n").utf8)) }
    }

    private func announce(_ event: RecordingEvent, phase: String) {
        guard let line = Self.line(event, phase: phase) else { return }
        if printsEvents { FileHandle.standardOutput.write(line + Data("\n".utf8)) }
        webhook?.send(line)
    }

    /// `{"event":"start","kinds":["motion"],"trigger":"2026-…Z","start":12.5,"end":null,"bounds":[x,y,w,h],"clip":"…"}`:
    /// times on the recording's clock in seconds, bounds normalised (null for a signal).
    static func line(_ event: RecordingEvent, phase: String) -> Data? {
        let line: [String: Any] = [
            "event": phase, "kinds": event.kinds, "trigger": SegmentArchive.timestamp(event.triggerDate),
            "firstTrigger": event.firstTrigger, "lastTrigger": event.lastTrigger, "start": event.start,
            "end": event.end.map { $0 as Any } ?? NSNull(), "clip": event.clip.map { $0.path as Any } ?? NSNull(),
            "bounds": event.bounds.map { [Double($0.minX), Double($0.minY), Double($0.width), Double($0.height)] as Any } ?? NSNull(),
        ]
        return try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didDelete segment: URL, reason: String) {
        log("deleted \(segment.path) (\(reason))")
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinish segment: MovieSegment, reason: MovieSegment.EndReason, error: CaptureError?) {
        continuation.yield(.finished(segment, reason, error))
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinishRecording error: CaptureError?) {
        continuation.yield(.recordingFinished(error))
        continuation.finish()
    }
}
