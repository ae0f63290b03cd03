/// One change a key-value observation reports (Foundation's NSKeyValueObservedChange).
public struct NSKeyValueObservedChange<Value> {
    /// What kind of change (only `.setting` happens here).
    public enum Kind: UInt, Sendable {
        case setting = 1, insertion, removal, replacement
    }

    public let kind: Kind
    /// The new value, when the observation asked for `.new` (or `.initial`).
    public let newValue: Value?
    /// The previous value, when the observation asked for `.old` (nil for the initial report).
    public let oldValue: Value?
    /// Always false: changes are reported after they happen.
    public let isPrior: Bool
}
