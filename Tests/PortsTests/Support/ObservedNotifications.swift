import Foundation

/// Collects the notifications of one name posted for one object, for assertions.
final class ObservedNotifications: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [Notification] = []
    private var token: (any NSObjectProtocol)?

    init(_ name: Notification.Name, object: AnyObject?) {
        token = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { [weak self] note in
            guard let self else { return }
            self.lock.withLock { self.received.append(note) }
        }
    }

    deinit { token.map(NotificationCenter.default.removeObserver) }

    var all: [Notification] { lock.withLock { received } }

    /// Waits up to `seconds` for at least `count` notifications.
    func wait(for count: Int = 1, seconds: Double = 5) async -> [Notification] {
        let deadline = Date().addingTimeInterval(seconds)
        while all.count < count && Date() < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        return all
    }
}
