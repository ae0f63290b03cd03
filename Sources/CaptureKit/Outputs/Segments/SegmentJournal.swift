import Foundation

/// The changes made to a large folder's index since `index.json` was last written, one JSON
/// line each in `index.journal`: a segment added or updated, an event, a segment deleted.
///
/// Rewriting `index.json` costs in proportion to the segments listed (0.3 s for a day of 2 s
/// segments, 43,200 of them, on this machine): below ``compactionFloor`` segments the index is
/// rewritten at each change; above it each change is a line appended here, and the index is
/// rewritten (and the journal emptied) once the journal holds an eighth of the index's lines,
/// and when the recording ends. Loading an index replays its journal; a line cut short by a
/// crash is skipped.
enum SegmentJournal {
    static let fileName = "index.journal"
    /// Segments below which `index.json` is rewritten at every change.
    static let compactionFloor = 2000

    enum Line: Codable, Equatable {
        case segment(SegmentIndex.Entry)
        case event(SegmentIndex.EventEntry)
        case removed(String)
    }

    /// Appends `lines` to `folder`'s journal.
    static func append(_ lines: [Line], folder: URL) throws {
        guard !lines.isEmpty else { return }
        var data = Data()
        for line in lines { data += try JSONEncoder().encode(line) + Data("\n".utf8) }
        let url = folder.appendingPathComponent(fileName)
        if !FileManager.default.fileExists(atPath: url.path) { FileManager.default.createFile(atPath: url.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
    }

    /// Applies `folder`'s journal to `index`; the number of lines applied.
    @discardableResult
    static func replay(into index: inout SegmentIndex, folder: URL) -> Int {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(fileName)) else { return 0 }
        var applied = 0
        for text in data.split(separator: UInt8(ascii: "\n")) {
            guard let line = try? JSONDecoder().decode(Line.self, from: Data(text)) else { continue }
            switch line {
            case .segment(let entry):
                if let existing = index.segments.lastIndex(where: { $0.file == entry.file }) { index.segments[existing] = entry } else { index.segments.append(entry) }
            case .event(let entry):
                if let existing = index.events.lastIndex(where: { $0.recording == entry.recording && $0.firstTrigger == entry.firstTrigger }) {
                    index.events[existing] = entry
                } else {
                    index.events.append(entry)
                }
            case .removed(let file):
                index.segments.removeAll { $0.file == file }
            }
            applied += 1
        }
        return applied
    }

    /// Empties `folder`'s journal (once `index.json` holds its changes).
    static func clear(folder: URL) {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(fileName))
    }
}
