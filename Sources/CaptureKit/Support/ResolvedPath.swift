import Glibc

/// A path with every symbolic link resolved (realpath(3)); the path itself when it cannot be
/// resolved (it does not exist). Foundation's `URL.resolvingSymlinksInPath()` does the same
/// through several URL round trips, which on a one-shot `capture snap` cost more than the
/// probe's system calls.
func resolvedPath(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
}
