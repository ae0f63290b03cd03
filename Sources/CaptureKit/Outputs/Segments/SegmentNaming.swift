import Foundation

/// Where a segmented recording's files go and what they are called.
///
/// A folder (`DIR/`): each file is named by the UTC time of its first frame,
/// `2026-11-27T21-00-00.000Z.mp4`, so names sort by time. A path with `%` in it is a strftime
/// pattern, expanded in UTC (`rec/%Y-%m-%d/%H-%M-%S.mp4`): its folders are made as needed, the
/// extension chooses the container, and the index goes in the folder before the first `%`.
/// A name already taken gets `-1`, `-2`, … before its extension.
struct SegmentNaming: Sendable, Equatable {
    /// Where the index lives: the folder, or the pattern's fixed folder.
    let folder: URL
    /// The strftime pattern (a whole path), nil for a folder.
    let pattern: String?
    let container: MovieContainer

    /// The containers segments can be written in: fragmented MP4/MOV, streamed Matroska.
    static let supportedExtensions = ["mp4", "mov", "mkv"]

    /// Checks `destination` (a folder, made when missing, or a pattern) and that the folder
    /// takes files, before anything starts. `fileType` is the extension for a folder.
    init(destination: URL, fileType: String) throws(CaptureError) {
        let path = destination.path
        if path.contains("%") {
            let fileExtension = (path as NSString).pathExtension.lowercased()
            guard Self.supportedExtensions.contains(fileExtension), let container = MovieContainer(rawValue: fileExtension) else {
                throw .unsupportedFileType(destination, supported: Self.supportedExtensions)
            }
            let components = destination.pathComponents
            let fixed = components.prefix { !$0.contains("%") }
            guard fixed.count < components.count else { throw .invalidSetting(name: "destination", value: path, valid: "a folder, or a path with strftime fields") }
            self.folder = URL(fileURLWithPath: NSString.path(withComponents: Array(fixed)), isDirectory: true)
            self.pattern = path
            self.container = container
        } else {
            guard Self.supportedExtensions.contains(fileType.lowercased()), let container = MovieContainer(rawValue: fileType.lowercased()) else {
                throw .unsupportedFileType(destination.appendingPathComponent("segment.\(fileType)"), supported: Self.supportedExtensions)
            }
            self.folder = destination
            self.pattern = nil
            self.container = container
        }
        try Self.prepare(folder)
    }

    /// Makes `folder` when missing; refuses one that is not a folder or takes no file.
    static func prepare(_ folder: URL) throws(CaptureError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .invalidSetting(name: "destination", value: folder.path, valid: "a folder (this is a file)")
            }
        } else {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .invalidSetting(name: "destination", value: folder.path, valid: "a folder that can be made (\(error.localizedDescription))")
            }
        }
        guard access(folder.path, W_OK | X_OK) == 0 else {
            throw .invalidSetting(name: "destination", value: folder.path, valid: "a folder this process can write to (\(String(cString: strerror(errno))))")
        }
    }

    /// The file for a segment starting at `date`: free, in a folder that exists.
    func url(for date: Date) throws(CaptureError) -> URL {
        let base: URL
        if let pattern {
            base = URL(fileURLWithPath: Self.expand(pattern, date: date))
            try Self.prepare(base.deletingLastPathComponent())
        } else {
            base = folder.appendingPathComponent("\(Self.name(for: date)).\(container.rawValue)")
        }
        var url = base
        var suffix = 1
        while FileManager.default.fileExists(atPath: url.path) {
            url = base.deletingLastPathComponent().appendingPathComponent("\(base.deletingPathExtension().lastPathComponent)-\(suffix).\(base.pathExtension)")
            suffix += 1
        }
        return url
    }

    /// `2026-11-27T21-00-00.000Z`: the UTC time to the millisecond, with `-` for `:`.
    static func name(for date: Date) -> String {
        let milliseconds = milliseconds(date)
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d-%02d-%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(milliseconds % 1000))
    }

    /// The whole milliseconds since 1970 a name shows for `date` (a hair above the binary
    /// value, so that a time read back from a name, plus a millisecond, is that next millisecond).
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000 + 1e-4).rounded(.down))
    }

    /// The time a name made by `name(for:)` stands for (the file's name without extension).
    static func date(fromName name: String) -> Date? {
        guard let match = name.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})Z(-\d+)?/) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(match.1)! - 1900
        parts.tm_mon = Int32(match.2)! - 1
        parts.tm_mday = Int32(match.3)!
        parts.tm_hour = Int32(match.4)!
        parts.tm_min = Int32(match.5)!
        parts.tm_sec = Int32(match.6)!
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: Double(seconds) + Double(Int(match.7)!) / 1000)
    }

    /// `pattern`'s strftime fields, in UTC.
    static func expand(_ pattern: String, date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = strftime(&buffer, buffer.count, pattern, &parts)
        return count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : pattern
    }
}
