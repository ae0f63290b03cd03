import Glibc

/// `path` with every symbolic link resolved (realpath(3)); nil when it cannot be resolved (it
/// does not exist). Foundation's `URL.resolvingSymlinksInPath()` does the same through several
/// URL round trips, which on a one-shot `capture snap` cost more than the probe's system calls.
/// Shared with CaptureServer, which checks that a requested file lies in its folder.
package func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}
