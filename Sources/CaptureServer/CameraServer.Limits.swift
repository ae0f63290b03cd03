import CaptureKit
import Foundation

extension CameraServer {
    /// What one client may hold of the server: how long it may take to send a request's head,
    /// how long a connection may sit idle, and how many connections there may be at once. A
    /// connection past a limit is closed; one over the count is not accepted until another
    /// closes. The camera runs on whatever the clients do.
    public struct Limits: Sendable, Hashable {
        /// Seconds a connection has to send a whole request head (the request line and every
        /// header), from when it opens or its last response ended: 30 by default. Slow
        /// senders (half a header, one byte at a time) are closed.
        public var requestHeadTimeout: Double
        /// Seconds a connection may go without sending anything while no response is in
        /// progress (between requests, or stalled in a body): 120 by default. Long responses
        /// (MJPEG, a WebSocket) are not idle.
        public var idleTimeout: Double
        /// Connections open at once: 512 by default, fewer when the process may not open that
        /// many files (a quarter of `RLIMIT_NOFILE`'s soft limit: the rest is the camera's,
        /// its encoders', WebRTC's and recordings').
        public var maximumConnections: Int

        /// Limits; the defaults are those above.
        public init(requestHeadTimeout: Double = 30, idleTimeout: Double = 120, maximumConnections: Int = 512) {
            self.requestHeadTimeout = requestHeadTimeout
            self.idleTimeout = idleTimeout
            self.maximumConnections = maximumConnections
        }

        /// ``maximumConnections``, lowered to a quarter of the descriptors this process may
        /// open (at least 8).
        var effectiveMaximumConnections: Int {
            min(maximumConnections, max(8, FileDescriptorBudget.limit / 4))
        }

        /// Throws `invalidSetting` for a timeout that is not a positive number of seconds or
        /// a count below 1.
        func validate() throws(CaptureError) {
            for (name, value) in [("request head timeout", requestHeadTimeout), ("idle timeout", idleTimeout)]
            where !(value.isFinite && value > 0 && value <= 86_400) {
                throw .invalidSetting(name: name, value: "\(value)", valid: "seconds, greater than 0 and at most 86400")
            }
            guard maximumConnections >= 1 else {
                throw .invalidSetting(name: "maximum connections", value: "\(maximumConnections)", valid: "1 or more")
            }
        }
    }
}
