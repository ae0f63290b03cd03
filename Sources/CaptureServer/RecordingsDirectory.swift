import CaptureKit
import Foundation

/// The folder recordings go to and `/recordings/` serves from. Only what the listing shows is
/// served: regular files inside it (no FIFOs, devices or sockets, which would hang or serve
/// nothing) whose names do not start with `.` (a recording being finalized, editors' and
/// the system's own files). A name is one path component (no `/`, not `.` or `..`, no NUL,
/// after percent decoding), and its real path (symlinks resolved) must still be inside the
/// folder's real path; anything else is not there.
struct RecordingsDirectory: Sendable {
    /// A file in the folder, as `GET /recordings/` lists it.
    struct Entry: Sendable, Encodable, Equatable {
        let name: String
        /// Bytes.
        let size: Int64
        /// Last modified, ISO 8601 UTC.
        let date: String
        /// Where to fetch it: `/recordings/NAME` (percent-encoded).
        let url: String
    }

    let url: URL

    /// The folder at `url`, created if need be.
    init(_ url: URL) throws {
        self.url = url.standardizedFileURL
        try FileManager.default.createDirectory(at: self.url, withIntermediateDirectories: true)
    }

    /// The folder's real path, symlinks resolved.
    var realPath: String { CaptureKit.realPath(url.path) ?? url.path }

    /// The file a request names (`name` as it came in the URL, percent-encoded), or nil: not a
    /// single component, hidden (a leading `.`), not in the folder once symlinks are resolved,
    /// not a regular file.
    func file(named raw: String) -> URL? {
        guard let name = raw.removingPercentEncoding, Self.isPlainName(name), !name.hasPrefix(".") else { return nil }
        let root = realPath
        guard let real = CaptureKit.realPath(url.appendingPathComponent(name).path),
              real.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { return nil }
        var status = stat()
        guard stat(real, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return URL(fileURLWithPath: real)
    }

    /// One path component that names something in a folder.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\\") && !name.contains("\0")
    }

    /// The regular files inside the folder (symlinks only when they stay inside), newest first.
    func entries() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        let formatter = ISO8601DateFormatter()
        return names.compactMap { name -> (Entry, Date)? in
            guard let file = file(named: name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name),
                  let attributes = try? FileManager.default.attributesOfItem(atPath: file.path) else { return nil }
            let date = attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
            let encoded = name.addingPercentEncoding(withAllowedCharacters: Self.nameAllowed) ?? name
            return (Entry(name: name, size: size, date: formatter.string(from: date), url: "/recordings/\(encoded)"), date)
        }
        .sorted { $0.1 > $1.1 || ($0.1 == $1.1 && $0.0.name < $1.0.name) }
        .map(\.0)
    }

    /// Characters left as they are in a name in a URL.
    static let nameAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#%"))

    /// A new file name for a recording started at `date`: `capture-YYYYMMDD-HHMMSS.mp4`, with
    /// `-2`, `-3`, … when that exists.
    func newRecordingURL(at date: Date = Date()) -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stem = "capture-\(formatter.string(from: date))"
        var candidate = url.appendingPathComponent("\(stem).mp4")
        var index = 2
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = url.appendingPathComponent("\(stem)-\(index).mp4")
            index += 1
        }
        return candidate
    }
}
