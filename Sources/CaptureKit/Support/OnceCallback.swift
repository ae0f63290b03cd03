import Synchronization

/// A callback that runs at most once, whichever of its callers comes first (an answer, or the
/// deadline that stands in for it). Safe from any thread.
final class OnceCallback<Value: Sendable>: Sendable {
    private let callback: Mutex<(@Sendable (Value) -> Void)?>

    init(_ callback: @escaping @Sendable (Value) -> Void) {
        self.callback = Mutex(callback)
    }

    /// Runs the callback with `value` unless it ran; true when this call ran it.
    @discardableResult
    func callAsFunction(_ value: Value) -> Bool {
        guard let callback = callback.withLock({ callback in defer { callback = nil }; return callback }) else { return false }
        callback(value)
        return true
    }
}
