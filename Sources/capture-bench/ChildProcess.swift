import Foundation

/// A child process started with `posix_spawn`, its signal mask cleared and SIGINT/SIGTERM at
/// their defaults. Foundation's `Process` passes on the spawning thread's mask, and the
/// threads of a Swift program block SIGINT: `gst-launch-1.0 -e` would never see the interrupt
/// that finishes its file.
struct ChildProcess {
    let pid: pid_t

    /// Starts `executable`; its standard output goes to `output` (a file it creates), else, like
    /// its standard error, to /dev/null.
    init(_ executable: String, _ arguments: [String], output: String? = nil) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", output == nil ? O_WRONLY : O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard status == 0 else { throw BenchFailure(message: "cannot start \(executable): \(String(cString: strerror(status)))") }
        self.pid = pid
    }

    func interrupt() { kill(pid, SIGINT) }

    /// Waits for the child; returns its exit status.
    @discardableResult
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status >> 8) & 0xff
    }
}
