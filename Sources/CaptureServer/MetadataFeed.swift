import CaptureKit
import Foundation
import Synchronization

/// Hands the session's metadata objects to `/ws/metadata`'s subscribers, each as JSON text
/// placed in its own view. The ``MetadataOutput`` (barcodes, and faces where OpenCV is there)
/// is in the session only while someone subscribes: with no one watching, no frame is scanned.
///
/// Threading: subscribing and unsubscribing change the session on ``work`` (they block on
/// it); the batches are read by one task and yielded to each subscriber's stream, which keeps
/// only the newest few for a slow reader.
final class MetadataFeed: Sendable {
    struct Subscriber {
        let continuation: AsyncStream<String>.Continuation
        let view: ViewSpec
        let preview: VideoPreview
    }

    struct State {
        var subscribers: [UUID: Subscriber] = [:]
        var output: MetadataOutput?
        var reader: Task<Void, Never>?
        var closed = false
    }

    let session: CaptureSession
    let state = Mutex(State())
    let work = DispatchQueue(label: "CaptureServer.metadata")
    /// Batches handed out so far.
    let delivered = Atomic<Int>(0)

    init(session: CaptureSession) {
        self.session = session
    }

    /// What the feed is doing, for a failing test's message.
    var diagnostics: String {
        let free = DispatchSemaphore(value: 0)
        work.async { free.signal() }
        let idle = free.wait(timeout: .now() + 1) == .success
        let (output, reader) = state.withLock { ($0.output, $0.reader) }
        return "output \(output.map { "\($0.connections.count) connection(s), types \($0.metadataObjectTypes.count)" } ?? "none"), "
            + "reader \(reader != nil), delivered \(delivered.load(ordering: .relaxed)), work queue \(idle ? "idle" : "busy")"
    }

    /// Subscribers now.
    var count: Int { state.withLock { $0.subscribers.count } }

    /// A stream of batches for a view; it ends on ``unsubscribe(_:)`` or ``finishAll()``.
    func subscribe(view: ViewSpec) -> (UUID, AsyncStream<String>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(4))
        let preview = VideoPreview()
        preview.sink = .none
        preview.videoGravity = view.gravity
        preview.bounds = view.bounds
        let open = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.subscribers[id] = Subscriber(continuation: continuation, view: view, preview: preview)
            return true
        }
        guard open else {
            continuation.finish()
            return (id, stream)
        }
        work.async { [self] in
            // The preview converts to the view's coordinates: it joins the session with no
            // branch of its own (sink none) and takes the connection's orientation and mirroring.
            preview.session = session
            reconcile()
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return (id, stream)
    }

    /// Ends a subscriber's stream; the last one out takes the metadata output out of the session.
    func unsubscribe(_ id: UUID) {
        guard let subscriber = state.withLock({ $0.subscribers.removeValue(forKey: id) }) else { return }
        subscriber.continuation.finish()
        work.async { [self] in
            subscriber.preview.session = nil
            reconcile()
        }
    }

    /// Ends every stream (the server stops); no one subscribes after.
    func finishAll() {
        let subscribers = state.withLock { state in
            state.closed = true
            return Array(state.subscribers.keys)
        }
        for id in subscribers { unsubscribe(id) }
        work.sync {}
    }

    /// On ``work``: the metadata output in the session while there are subscribers, out of it
    /// while there are none, whatever order subscribers came and went in.
    private func reconcile() {
        let (wanted, attached) = state.withLock { (!$0.subscribers.isEmpty, $0.output != nil) }
        if wanted, !attached { attachOutput() }
        if !wanted, attached { detachOutput() }
    }

    /// On ``work``: the metadata output joins the session, scanning for every code and face type
    /// there is (motion goes to the events, not to the overlay).
    private func attachOutput() {
        let output = MetadataOutput()
        do {
            try session.checked.addOutput(output)
            try output.setMetadataObjectTypes(output.availableMetadataObjectTypes.filter { $0 != .motion })
        } catch {
            CaptureServerLog.logger.error("metadata: \(error)")
            try? session.checked.removeOutput(output)
            return
        }
        let batches = output.metadataObjects(bufferingNewest: 4)
        let reader = Task { [weak self] in
            for await objects in batches {
                guard let self else { return }
                self.deliver(objects)
            }
        }
        state.withLock { state in
            state.output = output
            state.reader = reader
        }
    }

    /// On ``work``: the output leaves the session.
    private func detachOutput() {
        guard let (output, reader) = state.withLock({ state -> (MetadataOutput, Task<Void, Never>?)? in
            guard let output = state.output else { return nil }
            defer {
                state.output = nil
                state.reader = nil
            }
            return (output, state.reader)
        }) else { return }
        reader?.cancel()
        try? session.checked.removeOutput(output)
    }

    /// On the reader's task: one batch to every subscriber, placed in its view.
    private func deliver(_ objects: [any MetadataObject]) {
        delivered.add(1, ordering: .relaxed)
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers {
            let text = MetadataJSON.text(objects) { object in Self.place(object, in: subscriber) }
            subscriber.continuation.yield(text)
        }
    }

    /// The object in the subscriber's view coordinates, as its preview converts it (nil before
    /// the preview has a connection). A camera switch gives the preview a new connection: the
    /// view's orientation and mirroring are put on it again.
    static func place(_ object: any MetadataObject, in subscriber: Subscriber) -> (any MetadataObject)? {
        if let connection = subscriber.preview.connection {
            if connection.videoOrientation != subscriber.view.orientation { connection.videoOrientation = subscriber.view.orientation }
            if connection.automaticallyAdjustsVideoMirroring { connection.automaticallyAdjustsVideoMirroring = false }
            if connection.isVideoMirrored != subscriber.view.mirrored { connection.isVideoMirrored = subscriber.view.mirrored }
        }
        return subscriber.preview.transformedMetadataObject(for: object)
    }
}
