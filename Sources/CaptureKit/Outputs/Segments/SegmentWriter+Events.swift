import Dispatch
import Foundation
import GStreamerSwift

extension SegmentWriter {
    /// The bytes the pre-roll holds now.
    var heldBytes: Int { state.withLock { $0.clips?.heldBytes ?? 0 } }

    /// A trigger (`kind`) now, from any thread: starts an event, its clip opened from the
    /// pre-roll when clips are written, or extends the current one. Returns the event, nil
    /// before the recording's first frame, or without event settings.
    @discardableResult
    func trigger(_ kind: String, bounds: CGRect? = nil) -> RecordingEvent? {
        let now = DispatchTime.now().uptimeNanoseconds, date = Date()
        var happened: [Event] = []
        let event = state.withLock { state -> RecordingEvent? in
            guard !state.finished, !state.failed, state.clips != nil, let origin = state.startUptime else { return nil }
            let time = Double(now - min(now, origin)) / 1e9
            if var current = state.clips?.current {
                current.event.lastTrigger = max(current.event.lastTrigger, time)
                if !current.event.kinds.contains(kind) { current.event.kinds.append(kind) }
                if let bounds { current.event.bounds = current.event.bounds.map { $0.union(bounds) } ?? bounds }
                state.clips?.current = current
                return current.event
            }
            return startEvent(kind, bounds: bounds, at: time, date: date, &state, &happened)
        }
        happened.forEach(events)
        return event
    }

    /// A new event at `time`: its clip starts at the pre-roll's key frame in the ring (or at the
    /// trigger when the ring holds none yet), written at once from the ring when clips are files.
    private func startEvent(_ kind: String, bounds: CGRect?, at time: Double, date: Date, _ state: inout State, _ happened: inout [Event]) -> RecordingEvent? {
        guard let clips = state.clips else { return nil }
        let first = clips.clipStart(for: time)
        let start = first.map { clips.ring[$0].time } ?? time
        var event = RecordingEvent(kinds: [kind], triggerDate: date, firstTrigger: time, lastTrigger: time, start: start, end: nil, clip: nil, bounds: bounds)
        var descriptor: Int32?
        if clips.writesFiles {
            let startDate = (state.recordingStart ?? date).addingTimeInterval(start)
            let folder = naming.folder.appendingPathComponent("clips", isDirectory: true)
            var url = folder.appendingPathComponent("\(SegmentNaming.name(for: startDate)).\(naming.container.rawValue)")
            var suffix = 1
            while FileManager.default.fileExists(atPath: url.path) {
                url = folder.appendingPathComponent("\(SegmentNaming.name(for: startDate))-\(suffix).\(naming.container.rawValue)")
                suffix += 1
            }
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let opened = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard opened >= 0 else {
                fail(&state, &happened, Self.writeError(url: url))
                return nil
            }
            event.clip = url
            let header = state.stream.header(created: startDate)
            var written = header.withUnsafeBytes { writeAll(opened, $0) }
            for fragment in first.map({ clips.ring[$0...] }) ?? [] where written {
                for buffer in fragment.buffers where written {
                    written = (try? buffer.withBytes { writeAll(opened, $0) }) ?? false
                }
            }
            guard written else {
                fail(&state, &happened, Self.writeError(url: url))
                close(opened)
                return nil
            }
            descriptor = opened
        }
        state.clips?.current = (event, descriptor)
        happened.append(.eventStarted(event))
        return event
    }

    /// A unit begins (on the muxer's thread): ends the current event when past its post-roll
    /// (the unit goes to no clip), and goes into the ring.
    func eventUnit(_ unit: (videoTime: Double?, startsWithKeyFrame: Bool), _ retained: RetainedBuffer?, _ state: inout State, _ happened: inout [Event]) {
        guard state.clips != nil else { return }
        if state.clips?.ends(at: state.videoTime, video: unit.videoTime != nil) == true { endEvent(&state, &happened, at: state.videoTime) }
        state.clips?.begin(retained, time: state.videoTime, startsWithKeyFrame: unit.videoTime != nil && unit.startsWithKeyFrame)
    }

    /// Ends the current event at `time`: its clip (if any) is flushed and closed.
    func endEvent(_ state: inout State, _ happened: inout [Event], at time: Double) {
        guard var current = state.clips?.current else { return }
        state.clips?.current = nil
        current.event.end = max(time, current.event.start)
        if let descriptor = current.descriptor { sync(descriptor) }
        happened.append(.eventFinished(current.event))
    }
}
