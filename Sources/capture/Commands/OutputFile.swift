import ArgumentParser
import Foundation

/// The house rule for a file a command writes (`snap -o`): a file path, in a folder that exists,
/// that replaces an existing file only with `--force`, and never a directory. `capture record`
/// keeps the same rule; `capture run` applies it to every path a pipeline file writes. A FIFO or
/// device given on the command line (`-o /dev/null`) is written to, not replaced.
enum OutputFile {
    /// Checks `path`, given with `option`, as the arguments are validated: a usage error
    /// (exit 2) for an empty path or a directory.
    static func checkUsage(_ path: String, option: String, example: String) throws {
        guard !path.isEmpty else {
            throw ValidationError("\(option) '' is empty; give the file to write, e.g. \(option) \(example)")
        }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if path.hasSuffix("/") || (exists && isDirectory.boolValue) {
            let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
            throw ValidationError("\(option) '\(path)' is a directory; give a file in it, e.g. \(option) \(folder)/\(example)")
        }
    }

    /// Checks `path` before the camera starts: a runtime failure (exit 1) for a missing folder,
    /// a directory (a bracket's numbered file), or an existing file without `force`.
    static func checkReplacing(_ path: String, force: Bool) throws {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var parentIsDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &parentIsDirectory), parentIsDirectory.boolValue else {
            throw RuntimeFailure(message: "cannot write \(path): the folder \(parent) does not exist")
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFDIR {
            throw RuntimeFailure(message: "cannot write \(path): it is a directory; --force only replaces files")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { return }
        guard force else {
            throw RuntimeFailure(message: "'\(URL(fileURLWithPath: path).path)' already exists: remove it or write another file,"
                + " or pass --force to replace it")
        }
    }
}
