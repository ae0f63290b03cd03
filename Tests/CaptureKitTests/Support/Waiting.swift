import Foundation

/// Waits until `condition` holds, looking every 10 ms, for at most `seconds`; returns whether it
/// held. What a test waits for is the event it needs (frames arrived, a value announced), not a
/// time it hopes is long enough.
func waitFor(within seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
