import CaptureKit
import Foundation
import Synchronization

/// Hands JPEG frames to `/mjpeg`'s viewers: one ``VideoPreview`` with `sink = .frames(.jpeg)`
/// (one JPEG encode, the picture at its own size) shared by every viewer, in the session only
/// while someone watches. Each viewer's stream keeps only the newest frames: a slow or
/// vanished viewer drops its own frames and costs the others nothing.
///
/// Threading: the preview joins and leaves the session on ``work`` (that blocks on the
/// session); one task reads its frames and yields them to every viewer's stream.
final class FrameFeed: Sendable {
    struct State {
        var viewers: [UUID: AsyncStream<Data>.Continuation] = [:]
        var preview: VideoPreview?
        var reader: Task<Void, Never>?
        var closed = false
    }

    let session: CaptureSession
    let state = Mutex(State())
    let work = DispatchQueue(label: "CaptureServer.mjpeg")

    init(session: CaptureSession) {
        self.session = session
    }

    /// Viewers now.
    var count: Int { state.withLock { $0.viewers.count } }

    /// A stream of JPEG frames; it ends on ``unsubscribe(_:)`` or ``finishAll()``.
    func subscribe() -> (UUID, AsyncStream<Data>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .bufferingNewest(2))
        let open = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.viewers[id] = continuation
            return true
        }
        guard open else {
            continuation.finish()
            return (id, stream)
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        work.async { [self] in reconcile() }
        return (id, stream)
    }

    /// Ends a viewer's stream; the last one out takes the preview out of the session.
    func unsubscribe(_ id: UUID) {
        guard let continuation = state.withLock({ $0.viewers.removeValue(forKey: id) }) else { return }
        continuation.finish()
        work.async { [self] in reconcile() }
    }

    /// Ends every stream (the server stops); no one subscribes after.
    func finishAll() {
        let ids = state.withLock { state in
            state.closed = true
            return Array(state.viewers.keys)
        }
        for id in ids { unsubscribe(id) }
        work.sync {}
    }

    /// On ``work``: the preview in the session while someone watches, out of it while no one
    /// does, whatever order viewers came and went in.
    private func reconcile() {
        let (wanted, attached) = state.withLock { (!$0.viewers.isEmpty, $0.preview != nil) }
        if wanted, !attached { attachPreview() }
        if !wanted, attached { detachPreview() }
    }

    /// On ``work``: the JPEG preview joins the session.
    private func attachPreview() {
        let preview = VideoPreview()
        preview.sink = .frames(.jpeg)
        let frames = preview.frames
        let reader = Task { [weak self, weak preview] in
            for await sample in frames {
                if let preview { Self.keepUnmirrored(preview) }
                guard let self, let jpeg = try? sample.withUnsafeBytes({ Data($0) }) else { continue }
                for viewer in self.state.withLock({ Array($0.viewers.values) }) { viewer.yield(jpeg) }
            }
        }
        preview.session = session
        Self.keepUnmirrored(preview)
        state.withLock { state in
            state.preview = preview
            state.reader = reader
        }
    }

    /// The picture as the camera sees it, as WHEP sends it: a front camera's connection
    /// mirrors by itself (AVFoundation's automatic mirroring), so it is turned off on each
    /// connection the preview gets (a camera switch makes a new one).
    static func keepUnmirrored(_ preview: VideoPreview) {
        guard let connection = preview.connection else { return }
        if connection.automaticallyAdjustsVideoMirroring { connection.automaticallyAdjustsVideoMirroring = false }
        if connection.isVideoMirrored { connection.isVideoMirrored = false }
    }

    /// On ``work``: the preview leaves the session.
    private func detachPreview() {
        guard let (preview, reader) = state.withLock({ state -> (VideoPreview, Task<Void, Never>?)? in
            guard let preview = state.preview else { return nil }
            defer {
                state.preview = nil
                state.reader = nil
            }
            return (preview, state.reader)
        }) else { return }
        reader?.cancel()
        preview.session = nil
    }
}
