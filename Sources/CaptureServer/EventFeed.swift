import CaptureKit
import Foundation
import Synchronization

/// The continuous recording's events for `/ws/events`: each event's start and end as a JSON
/// text message to every subscriber (the newest 64 kept for a slow one), and the recording's
/// end for ``ServerCamera/stop()``.
///
/// Threading: the delegate methods run on the recording's delegate queue; `subscribe` and
/// `unsubscribe` from route handlers; state behind a lock, never held while yielding.
final class EventFeed: SegmentedMovieFileOutputDelegate, Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<String>.Continuation]>([:])
    private let finished = Mutex<(done: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func subscribe() -> (UUID, AsyncStream<String>) {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        subscribers.withLock { $0[id] = continuation }
        return (id, stream)
    }

    func unsubscribe(_ id: UUID) {
        subscribers.withLock { $0.removeValue(forKey: id) }?.finish()
    }

    func finishAll() {
        for continuation in subscribers.withLock({ subscribers in defer { subscribers = [:] }; return Array(subscribers.values) }) {
            continuation.finish()
        }
    }

    /// Waits until the recording has finished (at once when it has).
    func recordingFinished() async {
        await withCheckedContinuation { continuation in
            let done = finished.withLock { state -> Bool in
                if !state.done { state.waiting.append(continuation) }
                return state.done
            }
            if done { continuation.resume() }
        }
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didStartEvent event: RecordingEvent) { send(event, phase: "start") }
    func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinishEvent event: RecordingEvent) { send(event, phase: "end") }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinishRecording error: CaptureError?) {
        if let error { CaptureServerLog.logger.error("continuous recording: \(error)") }
        for waiting in finished.withLock({ state in defer { state = (true, []) }; return state.waiting }) { waiting.resume() }
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didDelete segment: URL, reason: String) {
        CaptureServerLog.logger.info("deleted \(segment.lastPathComponent) (\(reason))")
    }

    private func send(_ event: RecordingEvent, phase: String) {
        guard let text = EventJSON(event, phase: phase).text else { return }
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(text) }
    }
}

/// An event as the server shows it: `{"event":"start"|"end"|"marked","kinds",…}` with
/// wall-clock times (ISO 8601, UTC) and bounds normalised.
struct EventJSON: Encodable, Sendable {
    let event: String
    let kinds: [String]
    let trigger: String
    let start: String
    let end: String?
    let bounds: [Double]?

    init(_ event: RecordingEvent, phase: String) {
        self.event = phase
        kinds = event.kinds
        trigger = SegmentArchive.timestamp(event.triggerDate)
        // The capture clock's seconds from the trigger, placed on the wall clock.
        let origin = event.triggerDate.addingTimeInterval(-event.firstTrigger)
        start = SegmentArchive.timestamp(origin.addingTimeInterval(event.start))
        end = event.end.map { SegmentArchive.timestamp(origin.addingTimeInterval($0)) }
        bounds = event.bounds.map { [Double($0.minX), Double($0.minY), Double($0.width), Double($0.height)] }
    }

    init(_ event: SegmentArchive.Event) {
        self.event = "marked"
        kinds = event.kinds
        trigger = SegmentArchive.timestamp(event.trigger)
        start = SegmentArchive.timestamp(event.start)
        end = event.end.map(SegmentArchive.timestamp)
        bounds = event.bounds.map { [Double($0.minX), Double($0.minY), Double($0.width), Double($0.height)] }
    }

    var text: String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) }
    }
}
