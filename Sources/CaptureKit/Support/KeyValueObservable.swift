import Dispatch
import Observation

/// Objects whose observable properties can be watched the way AVFoundation code watches them,
/// with `observe(_:options:changeHandler:)`: ``CaptureDevice``, ``CaptureSession``,
/// ``StillImageOutput``. Built on Observation: the properties that are observable with
/// `withObservationTracking` (see each type) are the ones that report.
public protocol KeyValueObservable: AnyObject {}

extension KeyValueObservable {
    /// Calls `changeHandler` each time the property at `keyPath` changes, until the returned
    /// observation is invalidated or released (Foundation's block-based key-value observing).
    ///
    /// Threading: with `.initial` the handler runs once at once, on the calling thread; every
    /// change is reported on CaptureKit's key-value-observing queue, one report at a time and in
    /// order, never on a GStreamer thread. The handler need not be `Sendable`: it runs on that
    /// queue alone. A value that changes several times quickly may be reported once, with its
    /// latest value (as Observation coalesces).
    public func observe<Value>(_ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
                               changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void) -> NSKeyValueObservation {
        let token = NSKeyValueObservation()
        let current = self[keyPath: keyPath]
        if options.contains(.initial) {
            changeHandler(self, NSKeyValueObservedChange(kind: .setting, newValue: options.contains(.new) ? current : nil, oldValue: nil, isPrior: false))
        }
        let observer = KeyValueObserver(object: self, keyPath: keyPath, options: options, handler: changeHandler, token: token, last: current)
        observer.arm()
        return token
    }
}

/// Re-arms `withObservationTracking` after each change and reports it; holds its object weakly,
/// and ends when the token is invalidated or released, or the object is gone.
private final class KeyValueObserver<Object: AnyObject, Value>: @unchecked Sendable {
    private weak var object: Object?
    private let keyPath: KeyPath<Object, Value>
    private let options: NSKeyValueObservingOptions
    private let handler: (Object, NSKeyValueObservedChange<Value>) -> Void
    private weak var token: NSKeyValueObservation?
    /// The token's report queue, kept here so that a pending change holds the queue, never the
    /// token (a token released must end the observation).
    private let reports: DispatchQueue
    /// Touched on the reports queue only (and once before the first arm).
    private var last: Value

    init(object: Object, keyPath: KeyPath<Object, Value>, options: NSKeyValueObservingOptions,
         handler: @escaping (Object, NSKeyValueObservedChange<Value>) -> Void, token: NSKeyValueObservation, last: Value) {
        self.object = object
        self.keyPath = keyPath
        self.options = options
        self.handler = handler
        self.token = token
        reports = token.reports
        self.last = last
    }

    /// Tracks the property, returning the value read; on a change, reports it from the reports
    /// queue (which tracks again). Nil once the observation has ended.
    @discardableResult
    func arm() -> (Object, Value)? {
        guard let object, let token, !token.isInvalidated else { return nil }
        let value = withObservationTracking {
            object[keyPath: keyPath]
        } onChange: { [self] in
            // onChange runs before the new value is visible: read it on the reports queue.
            reports.async { self.report() }
        }
        return (object, value)
    }

    private func report() {
        // Tracked again with the value read, so a change after this read is reported next.
        guard let (object, value) = arm() else { return }
        let change = NSKeyValueObservedChange(kind: .setting, newValue: options.contains(.new) ? value : nil,
                                              oldValue: options.contains(.old) ? last : nil, isPrior: false)
        last = value
        handler(object, change)
    }
}

extension CaptureDevice: KeyValueObservable {}
extension CaptureSession: KeyValueObservable {}
extension StillImageOutput: KeyValueObservable {}
