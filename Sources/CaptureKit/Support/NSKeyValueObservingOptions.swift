/// What a key-value observation reports (Foundation's NSKeyValueObservingOptions, which
/// swift-corelibs-foundation lacks).
public struct NSKeyValueObservingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The change carries the new value.
    public static let new = NSKeyValueObservingOptions(rawValue: 0x01)
    /// The change carries the value before it.
    public static let old = NSKeyValueObservingOptions(rawValue: 0x02)
    /// The handler runs once at once, on the registering thread, with the current value.
    public static let initial = NSKeyValueObservingOptions(rawValue: 0x04)
    /// Accepted for source compatibility; CaptureKit reports changes after they happen only.
    public static let prior = NSKeyValueObservingOptions(rawValue: 0x08)
}
