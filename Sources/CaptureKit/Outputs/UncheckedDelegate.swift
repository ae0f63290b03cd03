/// A delegate carried to the queue the app chose for it, where alone it is called: AVFoundation's
/// contract, which lets delegates be plain, non-`Sendable` classes.
struct UncheckedDelegate<Delegate>: @unchecked Sendable {
    let value: Delegate
}
