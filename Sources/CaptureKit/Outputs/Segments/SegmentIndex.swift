import Foundation

/// A segmented recording folder's `index.json`: its segments in the order they were written,
/// each with its wall-clock start and its place on its recording's capture clock. Rebuilt from
/// the files (their names and boxes) when missing or damaged, so a restart continues it.
struct SegmentIndex: Codable, Sendable, Equatable {
    struct Entry: Codable, Sendable, Equatable {
        /// The file, relative to the folder.
        var file: String
        /// Its first frame's wall-clock time (ISO 8601, UTC, milliseconds).
        var start: String
        /// Which recording it belongs to (they are numbered from 1 in the folder).
        var recording: Int
        /// Seconds from the recording's first frame to this segment's (the capture clock).
        var startTime: Double
        var duration: Double
        var frames: Int
        var bytes: Int64
        /// Being written (the recording was running when the index was saved).
        var open: Bool
    }

    /// An event: its triggers and the span of its clip on its recording's capture clock.
    struct EventEntry: Codable, Sendable, Equatable {
        var kinds: [String]
        /// Its first trigger's wall-clock time (ISO 8601, UTC, milliseconds).
        var trigger: String
        var recording: Int
        var firstTrigger: Double
        var lastTrigger: Double
        var start: Double
        /// Nil while it is being recorded.
        var end: Double?
        /// Its clip, relative to the folder; nil when events are only marked.
        var clip: String?
        /// Where in the frame, [x, y, width, height] normalised; nil for triggers without a place.
        var bounds: [Double]?
    }

    var version = 1
    var segments: [Entry] = []
    var events: [EventEntry] = []

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        segments = try container.decode([Entry].self, forKey: .segments)
        events = try container.decodeIfPresent([EventEntry].self, forKey: .events) ?? []
    }

    static let fileName = "index.json"

    /// The folder's index: read, or rebuilt from the files when missing or damaged, with its
    /// journal's changes (``SegmentJournal``) replayed.
    static func load(folder: URL) -> SegmentIndex {
        let url = folder.appendingPathComponent(fileName)
        var index: SegmentIndex
        if let data = try? Data(contentsOf: url), let read = try? JSONDecoder().decode(SegmentIndex.self, from: data), read.version == 1 {
            index = read
        } else {
            index = rebuild(folder: folder)
        }
        SegmentJournal.replay(into: &index, folder: folder)
        return index
    }

    /// An index made from the segment files under `folder`: ordered by start, a file whose
    /// video starts at 0 on the capture clock (within a frame) beginning a new recording.
    static func rebuild(folder: URL) -> SegmentIndex {
        var found: [(Date, Entry)] = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.contentModificationDateKey])
        while let url = files?.nextObject() as? URL {
            guard SegmentNaming.supportedExtensions.contains(url.pathExtension.lowercased()), let file = SegmentFile(url: url) else { continue }
            let relative = Self.relativePath(url, in: folder)
            let modified = (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? Date()
            let date = SegmentNaming.date(fromName: url.deletingPathExtension().lastPathComponent) ?? file.created
                ?? modified.addingTimeInterval(-file.duration)
            found.append((date, Entry(file: relative, start: Self.format(date), recording: 0, startTime: file.startTime, duration: file.duration,
                                      frames: file.frameCount, bytes: file.byteCount, open: false)))
        }
        var index = SegmentIndex()
        var recording = 0
        for (_, entry) in found.sorted(by: { $0.0 < $1.0 }) {
            var entry = entry
            // A recording's first file starts its video at 0 (a tick or so in: the muxer's first decode time).
            if entry.startTime < 0.02 || recording == 0 { recording += 1 }
            entry.recording = recording
            index.segments.append(entry)
        }
        return index
    }

    /// Writes the index atomically (a new file renamed over the old), and empties the journal
    /// whose changes it now holds.
    func save(folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(self).write(to: folder.appendingPathComponent(Self.fileName), options: .atomic)
        SegmentJournal.clear(folder: folder)
    }

    /// The journal line for the entry of `file`.
    func line(forSegment file: String) -> SegmentJournal.Line? {
        segments.last { $0.file == file }.map { .segment($0) }
    }

    /// The last segment's start, for names that must sort after it. (Starts are ISO 8601 in
    /// UTC to the millisecond: their text sorts as their times do.)
    var lastStart: Date? { segments.map(\.start).max().flatMap(Self.date) }

    /// The closed segments, oldest first.
    var closedOldestFirst: [Entry] { segments.filter { !$0.open }.sorted { $0.start < $1.start } }

    /// The number for a new recording.
    var nextRecording: Int { (segments.map(\.recording).max() ?? 0) + 1 }

    /// Adds or updates the entry for `segment` of `recording`; returns its file as listed.
    @discardableResult
    mutating func record(_ segment: MovieSegment, recording: Int, folder: URL, open: Bool) -> String {
        let file = Self.relativePath(segment.url, in: folder)
        let entry = Entry(file: file, start: Self.format(segment.startDate), recording: recording, startTime: segment.startTime,
                          duration: segment.duration, frames: segment.frameCount, bytes: segment.byteCount, open: open)
        if let existing = segments.lastIndex(where: { $0.file == file }) {
            segments[existing] = entry
        } else {
            segments.append(entry)
        }
        return file
    }

    /// Whether `segment` holds part of an event marked in the index (events with clips have
    /// their own file and lock no segment).
    func holdsEvent(_ segment: Entry) -> Bool {
        events.contains { event in
            event.clip == nil && event.recording == segment.recording && event.start < segment.startTime + segment.duration
                && (event.end ?? .infinity) > segment.startTime
        }
    }

    /// Adds or updates the entry for `event` of `recording` (by its first trigger); returns it.
    @discardableResult
    mutating func record(_ event: RecordingEvent, recording: Int, folder: URL) -> EventEntry {
        let clip = event.clip.map { Self.relativePath($0, in: folder) }
        let entry = EventEntry(kinds: event.kinds, trigger: Self.format(event.triggerDate), recording: recording, firstTrigger: event.firstTrigger,
                               lastTrigger: event.lastTrigger, start: event.start, end: event.end, clip: clip,
                               bounds: event.bounds.map { [Double($0.minX), Double($0.minY), Double($0.width), Double($0.height)] })
        if let existing = events.lastIndex(where: { $0.recording == recording && $0.firstTrigger == event.firstTrigger }) {
            events[existing] = entry
        } else {
            events.append(entry)
        }
        return entry
    }

    /// `url`'s path relative to `folder`, as the index lists files (its name when outside).
    static func relativePath(_ url: URL, in folder: URL) -> String {
        let root = folder.standardizedFileURL.path, path = url.standardizedFileURL.path
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : url.lastPathComponent
    }

    /// `date` in ISO 8601, UTC, at the millisecond its file's name shows (the formatter would
    /// round where names cut).
    static func format(_ date: Date) -> String {
        SegmentArchive.timestamp(Date(timeIntervalSince1970: Double(SegmentNaming.milliseconds(date)) / 1000))
    }

    static func date(_ text: String) -> Date? {
        SegmentArchive.date(fromTimestamp: text)
    }
}
