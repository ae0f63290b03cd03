import Foundation

/// A folder of segments (``SegmentedMovieFileOutput``'s) read by wall-clock time: the segments
/// and events of a range, and one MP4 of a range made from the segments without re-encoding.
///
/// Reads the folder's `index.json` (rebuilt from the files when missing or damaged). Paths in
/// the index stay in the folder: an entry naming a file outside it (`../`, an absolute path, a
/// link out) is left out.
///
/// Threading: a value; each call reads the folder afresh, from any thread.
public struct SegmentArchive: Sendable {
    /// A closed or open segment.
    public struct Segment: Sendable, Equatable {
        public var url: URL
        /// Its path relative to the folder, as the index names it.
        public var file: String
        /// Its first frame's wall-clock time.
        public var start: Date
        public var duration: Double
        public var frames: Int
        public var bytes: Int64
        /// Which recording in the folder it belongs to (numbered from 1).
        public var recording: Int
        /// Seconds from its recording's first frame to its own.
        public var recordingTime: Double
        public var end: Date { start.addingTimeInterval(duration) }
    }

    /// An event marked in the folder's index.
    public struct Event: Sendable, Equatable {
        public var kinds: [String]
        public var trigger: Date
        /// Its clip's span in wall-clock time (the end nil while it is recorded).
        public var start: Date
        public var end: Date?
        public var bounds: CGRect?
        public var clip: URL?
    }

    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    /// The segments that overlap `from..<to`, by start.
    public func segments(from: Date, to: Date) -> [Segment] {
        allSegments().filter { $0.start < to && $0.end > from }
    }

    /// The events whose clips overlap `from..<to`, by start.
    public func events(from: Date, to: Date) -> [Event] {
        let index = SegmentIndex.load(folder: folder)
        let origins = Dictionary(segments(of: index).map { ($0.recording, $0.start.addingTimeInterval(-$0.recordingTime)) },
                                 uniquingKeysWith: { first, _ in first })
        return index.events.compactMap { entry -> Event? in
            guard let origin = origins[entry.recording], let trigger = SegmentIndex.date(entry.trigger) else { return nil }
            let bounds = entry.bounds.flatMap { $0.count == 4 ? CGRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) : nil }
            return Event(kinds: entry.kinds, trigger: trigger, start: origin.addingTimeInterval(entry.start),
                         end: entry.end.map { origin.addingTimeInterval($0) }, bounds: bounds, clip: entry.clip.flatMap(contained))
        }
        .filter { $0.start < to && ($0.end ?? .distantFuture) > from }
        .sorted { $0.start < $1.start }
    }

    /// Every segment the index lists whose file is in the folder, by start.
    func allSegments() -> [Segment] {
        segments(of: SegmentIndex.load(folder: folder))
    }

    private func segments(of index: SegmentIndex) -> [Segment] {
        index.segments.compactMap { entry -> Segment? in
            guard let url = contained(entry.file), let start = SegmentIndex.date(entry.start) else { return nil }
            return Segment(url: url, file: entry.file, start: start, duration: entry.duration, frames: entry.frames, bytes: entry.bytes,
                           recording: entry.recording, recordingTime: entry.startTime)
        }
        .sorted { $0.start < $1.start }
    }

    /// `path` (relative, from the index) as a file under the folder, or nil when it leads out.
    func contained(_ path: String) -> URL? {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else { return nil }
        let root = folder.resolvingSymlinksInPath().standardizedFileURL.path
        let url = folder.appendingPathComponent(path)
        let resolved = url.resolvingSymlinksInPath().standardizedFileURL.path
        return resolved.hasPrefix(root + "/") ? url : nil
    }
}
