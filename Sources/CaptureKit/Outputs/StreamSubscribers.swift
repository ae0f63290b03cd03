/// The AsyncStreams an output feeds, kept in its state: subscribing, ending, and the list each
/// frame yields to (rebuilt only when one subscribes or ends, so a frame only retains it).
struct StreamSubscribers<Element: Sendable> {
    private var streams: [Int: AsyncStream<Element>.Continuation] = [:] {
        didSet { all = Array(streams.values) }
    }
    private var next = 0
    /// Every live stream's continuation.
    private(set) var all: [AsyncStream<Element>.Continuation] = []

    mutating func add(_ continuation: AsyncStream<Element>.Continuation) -> Int {
        defer { next += 1 }
        streams[next] = continuation
        return next
    }

    mutating func remove(_ id: Int) {
        streams.removeValue(forKey: id)
    }
}

/// An output that feeds AsyncStreams from its state.
protocol StreamFeeding: AnyObject, Sendable {
    associatedtype StreamElement: Sendable
    /// Runs `body` on the subscribers, under the output's lock.
    func withSubscribers<R>(_ body: (inout StreamSubscribers<StreamElement>) -> R) -> R
}

extension StreamFeeding {
    /// A new stream that keeps the newest `bufferingNewest` elements for a slow consumer and
    /// leaves the output's subscribers when it ends.
    func makeStream(bufferingNewest: Int) -> AsyncStream<StreamElement> {
        let (stream, continuation) = AsyncStream<StreamElement>.makeStream(bufferingPolicy: .bufferingNewest(bufferingNewest))
        let id = withSubscribers { $0.add(continuation) }
        continuation.onTermination = { [weak self] _ in
            self?.withSubscribers { $0.remove(id) }
        }
        return stream
    }
}
