import CaptureKit
import Foundation
import Glibc

/// A folder the paths a pipeline file names must stay in, and the check that they do: the
/// folder a run writes into, for the files it writes; the pipeline file's own folder, for the
/// files its `file:` devices play.
///
/// A path resolves as the kernel would open it: its deepest existing ancestor with every
/// symbolic link followed (realpath(3)), then the rest of it, which does not exist yet, as
/// written; `..` in that rest has no folder to go up from and is refused.
struct PipelineFolder {
    /// The folder as given.
    let url: URL
    /// The folder resolved the same way (a `..` in a part that does not exist yet is taken
    /// lexically: the folder is the caller's choice, not the file's).
    let resolved: String

    init(_ url: URL) {
        self.url = url
        let absolute = url.path.hasPrefix("/") ? url.path : FileManager.default.currentDirectoryPath + "/" + url.path
        switch Self.resolve(absolute, lexicalParents: true) {
        case .success(let path): resolved = path
        case .failure: resolved = url.standardizedFileURL.path
        }
    }

    /// Why a path cannot be written.
    enum Problem: Error {
        /// It resolves outside the folder.
        case outside(resolved: String)
        /// It has `..` after a folder that does not exist yet.
        case parentOfMissingFolder
        /// A component is a symbolic link to something that does not exist.
        case danglingLink(String, target: String)
    }

    /// `absolute` with its deepest existing ancestor resolved and the rest appended.
    static func resolve(_ absolute: String, lexicalParents: Bool) -> Result<String, Problem> {
        let components = absolute.split(separator: "/").map(String.init)
        var existing = components.count
        var base = "/"
        while existing > 0 {
            if let real = realPath("/" + components[..<existing].joined(separator: "/")) {
                base = real
                break
            }
            existing -= 1
        }
        var parts = base == "/" ? [] : base.split(separator: "/").map(String.init)
        for (offset, component) in components[existing...].enumerated() {
            switch component {
            case ".":
                continue
            case "..":
                guard lexicalParents else { return .failure(.parentOfMissingFolder) }
                _ = parts.popLast()
            default:
                let path = "/" + (parts + [component]).joined(separator: "/")
                // The first missing component may yet be a link to nowhere, which a write would follow.
                if offset == 0, let target = linkTarget(path) {
                    return .failure(.danglingLink(path, target: target))
                }
                parts.append(component)
            }
        }
        return .success("/" + parts.joined(separator: "/"))
    }

    /// The target of the symbolic link at `path`, if it is one.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `written` (absolute, or relative to the folder) resolved, if it lies inside the folder.
    func resolve(_ written: String) -> Result<String, Problem> {
        let absolute = written.hasPrefix("/") ? written : url.path + "/" + written
        let candidate = absolute.hasPrefix("/") ? absolute : FileManager.default.currentDirectoryPath + "/" + absolute
        switch Self.resolve(candidate, lexicalParents: false) {
        case .failure(let problem):
            return .failure(problem)
        case .success(let path):
            let prefix = resolved == "/" ? "/" : resolved + "/"
            guard path.hasPrefix(prefix), path.count > prefix.count else { return .failure(.outside(resolved: path)) }
            return .success(path)
        }
    }

    /// Checks a path the file writes at `location`: inside the folder, and, for a file, not an
    /// existing file unless `replacing`, never an existing directory, FIFO or device.
    func check(_ written: String, at location: PipelineFile.SourceLocation, isDirectory: Bool, replacing: Bool)
        throws(PipelineFileError)
    {
        let path: String
        switch resolve(written) {
        case .success(let resolvedPath):
            path = resolvedPath
        case .failure(.outside(let resolvedPath)):
            throw PipelineFileError(.pathOutsideDirectory(written, resolved: resolvedPath, directory: url.path), at: location)
        case .failure(.parentOfMissingFolder):
            throw PipelineFileError(.unsafeOutputPath(written, reason: "'..' follows a folder that does not exist yet;"
                + " paths must stay inside the output directory '\(url.path)'"), at: location)
        case .failure(.danglingLink(let link, let target)):
            throw PipelineFileError(.unsafeOutputPath(written, reason: "'\(link)' is a symbolic link to '\(target)', which does not"
                + " exist; a write would follow it out of the output directory '\(url.path)'"), at: location)
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        let type = status.st_mode & S_IFMT
        if isDirectory {
            guard type == S_IFDIR else {
                throw PipelineFileError(.unsafeOutputPath(written, reason: "'\(path)' exists and is \(Self.describe(type)), not a folder"),
                                        at: location)
            }
            return
        }
        guard type == S_IFREG else {
            throw PipelineFileError(.unsafeOutputPath(written, reason: "'\(path)' exists and is \(Self.describe(type)), not a file a run"
                + " can replace"), at: location)
        }
        guard replacing else { throw PipelineFileError(.fileExists(written, resolved: path), at: location) }
    }

    /// Checks the files an earlier run left that `pattern` (a path whose last component has one
    /// `{n}`) would overwrite from index `after` + 1 on, listing its folder.
    func checkLeftovers(of pattern: String, after: Int, at location: PipelineFile.SourceLocation, replacing: Bool)
        throws(PipelineFileError)
    {
        let placeholder = PipelineFile.StillSpec.indexPlaceholder
        let folder = (pattern as NSString).deletingLastPathComponent
        let name = (pattern as NSString).lastPathComponent
        let pieces = name.components(separatedBy: placeholder)
        guard pieces.count == 2, !folder.contains(placeholder) else { return }
        let listed: String
        if folder.isEmpty {
            listed = resolved
        } else if case .success(let path) = resolve(folder) {
            listed = path
        } else {
            return
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: listed) else { return }
        for entry in names.sorted() where entry.hasPrefix(pieces[0]) && entry.hasSuffix(pieces[1])
            && entry.count > pieces[0].count + pieces[1].count {
            let digits = entry.dropFirst(pieces[0].count).dropLast(pieces[1].count)
            guard digits.allSatisfy(\.isASCIIDigit), let index = Int(digits), index > after,
                  String(index) == digits else { continue }
            try check(folder.isEmpty ? entry : folder + "/" + entry, at: location, isDirectory: false, replacing: replacing)
        }
    }

    /// `a directory`, `a FIFO`…, for a `stat` file type.
    static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "a regular file"
        }
    }
}
