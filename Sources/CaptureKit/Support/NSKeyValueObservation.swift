import Dispatch
import Observation
import Synchronization

/// A key-value observation under way (Foundation's NSKeyValueObservation): it reports until
/// ``invalidate()`` is called or the token is released. Made by `observe(_:options:changeHandler:)`.
public final class NSKeyValueObservation: Sendable {
    private let ended = Atomic<Bool>(false)

    init() {}

    /// Stops the observation; no report starts after it returns.
    public func invalidate() { ended.store(true, ordering: .sequentiallyConsistent) }

    deinit { invalidate() }

    var isInvalidated: Bool { ended.load(ordering: .sequentiallyConsistent) }

    /// Where this observation's change handler runs: a serial queue of its own, so its reports
    /// come in order and a slow handler delays no other observation.
    let reports = DispatchQueue(label: "capturekit.key-value-observing")
}
