import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file written in a folder without a name there until ``replace(_:)`` puts it in place of
/// another, in one step: Linux's `O_TMPFILE`, so that a process killed while writing it leaves
/// nothing behind (the kernel frees an unnamed file when its last descriptor closes).
///
/// Where the file system has no unnamed files, it is a hidden named one, `.NAME.finalizing`
/// next to the file it will replace, removed when this is released; only a kill leaves that one
/// behind, and the next file made for the same name removes it first. The named form is also
/// what ``replace(_:)`` links an unnamed file to for the moment before renaming it.
///
/// Not thread-safe: one owner writes it (through ``descriptor``) and replaces or drops it.
final class UnnamedFile {
    /// Where the file is written: give it to `fdsink`. Closed when this is released.
    let descriptor: Int32
    /// The hidden name, `.NAME.finalizing`, used for the moment of the rename (and for the
    /// whole time where unnamed files are not available).
    private let hiddenName: URL
    /// Whether the file has the hidden name from the start (no `O_TMPFILE`).
    private let named: Bool

    /// An empty file in `target`'s folder that can later replace `target`.
    init(replacing target: URL) throws(MovieFinalizer.Failure) {
        let folder = target.deletingLastPathComponent()
        hiddenName = folder.appendingPathComponent(".\(target.lastPathComponent).finalizing")
        // Left by a process killed while naming its file: ours to replace.
        unlink(hiddenName.path)
        let unnamed = open(folder.path, Self.temporaryFileFlag | O_WRONLY | O_CLOEXEC, 0o666)
        if unnamed >= 0 {
            descriptor = unnamed
            named = false
            return
        }
        let file = open(hiddenName.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard file >= 0 else {
            throw .failed("cannot create \(hiddenName.path): \(String(cString: strerror(errno)))")
        }
        descriptor = file
        named = true
    }

    deinit {
        close(descriptor)
        if named { unlink(hiddenName.path) }
    }

    /// The bytes written so far.
    var size: Int64 {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int64(status.st_size) : 0
    }

    /// Puts the file in place of `target`, atomically: a reader sees the old file or the new one.
    /// The file's bytes reach the disk first, so that a power cut after the rename cannot leave
    /// the name on an empty file.
    func replace(_ target: URL) throws(MovieFinalizer.Failure) {
        guard fsync(descriptor) == 0 else {
            throw .failed("cannot flush the finished file to disk: \(String(cString: strerror(errno)))")
        }
        if !named {
            // linkat(2) through /proc gives an O_TMPFILE file a name without CAP_DAC_READ_SEARCH.
            guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, hiddenName.path, AT_SYMLINK_FOLLOW) == 0 else {
                throw .failed("cannot name the finished file \(hiddenName.path): \(String(cString: strerror(errno)))")
            }
        }
        guard rename(hiddenName.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(hiddenName.path)
            throw .failed("cannot rename \(hiddenName.path) to \(target.path): \(reason)")
        }
    }

    /// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), which Glibc's headers define in a form Swift
    /// does not import.
    private static let temporaryFileFlag: Int32 = 0o20000000 | O_DIRECTORY
}
