import Synchronization

/// The connection a running branch serves, replaced when the session re-forms it around the
/// same branch (a camera switch makes a new connection to an output whose branch stays).
/// Callbacks read it per frame instead of capturing one connection for the branch's life.
final class ConnectionSlot: Sendable {
    private let current: Mutex<CaptureConnection>

    init(_ connection: CaptureConnection) { current = Mutex(connection) }

    var connection: CaptureConnection {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
