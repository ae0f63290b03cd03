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

    /// Where change handlers run: one serial queue, so each observation's reports come in order.
    static let reports = DispatchQueue(label: "capturekit.key-value-observing")
}
