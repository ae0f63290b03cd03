import CaptureKit
import Foundation
import Synchronization

/// Hands JPEG frames to `/mjpeg`'s viewers. Until the session's JPEG preview is there, it has
/// none to hand.
final class FrameFeed: Sendable {
    let session: CaptureSession

    init(session: CaptureSession) {
        self.session = session
    }

    /// A stream of JPEG frames, or nil when the server cannot make them.
    func subscribe() -> (UUID, AsyncStream<Data>)? { nil }

    func unsubscribe(_ id: UUID) {}

    func finishAll() {}
}
