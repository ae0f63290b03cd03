import Synchronization

/// Runs async operations one at a time, in the order they were asked for: each starts once the
/// one before it has finished, whether it succeeded or threw. An operation goes on to its end
/// when its caller is cancelled (a client that hangs up does not leave a half-started
/// recording).
final class SerialQueue: Sendable {
    private let last = Mutex<Task<Void, Never>?>(nil)

    /// Runs `body` after every operation asked for before it; returns what it returns.
    func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let task: Task<T, any Error> = last.withLock { last in
            let previous = last
            let next = Task<T, any Error> {
                await previous?.value
                return try await body()
            }
            last = Task { _ = try? await next.value }
            return next
        }
        return try await task.value
    }
}
