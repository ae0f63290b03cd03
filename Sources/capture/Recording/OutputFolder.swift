import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The folder a command writes its file into, checked before the camera starts: that it
/// exists, is a folder, and takes a new file.
enum OutputFolder {
    /// Refuses `file` when its folder cannot take it, saying which folder and why: it does not
    /// exist, is not a folder, is not writable (EACCES) or is on a read-only file system (EROFS).
    /// Creates `file` to find out, and removes it; `file` must not exist.
    static func check(_ file: URL) throws(RuntimeFailure) {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        if descriptor >= 0 {
            close(descriptor)
            unlink(file.path)
            return
        }
        let number = errno
        let folder = file.deletingLastPathComponent().path
        let reason: String = switch number {
        case ENOENT, ENOTDIR: missing(folder)
        case EACCES, EPERM: "the folder '\(folder)' is not writable: permission denied (\(name(number)))"
        case EROFS: "the folder '\(folder)' is on a read-only file system (EROFS)"
        default: "'\(file.path)' cannot be created: \(String(cString: strerror(number))) (\(name(number)))"
        }
        throw RuntimeFailure(message: "cannot record to '\(file.path)': \(reason)")
    }

    /// Why `folder` takes no file when creating one found no folder: the nearest part of its
    /// path that exists is a file, or the folder does not exist.
    private static func missing(_ folder: String) -> String {
        var path = folder
        while path != "/" && !path.isEmpty {
            var status = stat()
            if stat(path, &status) == 0 {
                return status.st_mode & S_IFMT == S_IFDIR ? "the folder '\(folder)' does not exist"
                    : "'\(path)' is not a folder (ENOTDIR)"
            }
            path = (path as NSString).deletingLastPathComponent
        }
        return "the folder '\(folder)' does not exist"
    }

    /// `EACCES` for 13.
    private static func name(_ number: Int32) -> String {
        switch number {
        case EACCES: "EACCES"
        case EPERM: "EPERM"
        case EROFS: "EROFS"
        case ENOSPC: "ENOSPC"
        case EEXIST: "EEXIST"
        case EISDIR: "EISDIR"
        case ENAMETOOLONG: "ENAMETOOLONG"
        default: "errno \(number)"
        }
    }
}
