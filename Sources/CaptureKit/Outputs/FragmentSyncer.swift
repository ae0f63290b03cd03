import Dispatch
import Foundation
import Synchronization

/// Flushes a recording's file to disk (fsync) each time a fragment is complete, on a queue of
/// its own so the muxer never waits for the disk; counts what that costs.
///
/// The file sink writes unbuffered, so once the file holds `offset` bytes the fragment is in the
/// kernel; the syncer waits for that (briefly) and then calls `fsync` on its own descriptor
/// (which flushes the file, whoever wrote it).
final class FragmentSyncer: Sendable {
    struct Stats: Sendable, Equatable {
        var fragments = 0
        var nanoseconds: UInt64 = 0
        var maxNanoseconds: UInt64 = 0
    }

    private let url: URL
    private let queue = DispatchQueue(label: "CaptureKit.FragmentSyncer")
    private let state = Mutex<(descriptor: Int32, stats: Stats)>((-1, Stats()))

    init(url: URL) { self.url = url }

    /// What flushing has cost so far.
    var stats: Stats { state.withLock { $0.stats } }

    /// Flushes the file once it holds `offset` bytes (waits at most half a second for the sink).
    func sync(through offset: Int64) {
        queue.async { [self] in
            let descriptor = state.withLock { state -> Int32 in
                if state.descriptor < 0 { state.descriptor = open(url.path, O_RDONLY | O_CLOEXEC) }
                return state.descriptor
            }
            guard descriptor >= 0 else { return }
            var info = stat()
            for _ in 0..<500 where fstat(descriptor, &info) == 0 && Int64(info.st_size) < offset {
                usleep(1000)
            }
            let started = DispatchTime.now().uptimeNanoseconds
            fsync(descriptor)
            let spent = DispatchTime.now().uptimeNanoseconds - started
            state.withLock { state in
                state.stats.fragments += 1
                state.stats.nanoseconds += spent
                state.stats.maxNanoseconds = max(state.stats.maxNanoseconds, spent)
            }
        }
    }

    /// Closes the descriptor after any pending flush.
    func close() {
        queue.sync {
            state.withLock { state in
                if state.descriptor >= 0 { _ = Foundation.close(state.descriptor) }
                state.descriptor = -1
            }
        }
    }
}
