import CGStreamer
import CGStreamerSys

/// xdg-desktop-portal's Camera portal over GDBus (GLib's D-Bus), on the bus at `address`: each
/// call opens its own connection, so nothing is cached between calls or buses. Calls block the
/// calling thread (a request waits for the user's answer): never call them on a streaming thread.
public struct CameraPortalClient: Sendable {
    /// The bus's address (the session bus: `DBUS_SESSION_BUS_ADDRESS`).
    public let address: String

    public init(address: String) {
        self.address = address
    }

    /// How an `AccessCamera` request ended.
    public enum Answer: Sendable, Equatable {
        case granted
        /// The user said no (or closed the dialog).
        case cancelled
        /// Ended otherwise (a policy, an error in the portal).
        case ended
    }

    /// Whether the bus has a portal (nil when the bus cannot be reached).
    public var isRunning: Bool? { Self.answer(ck_portal_running(address)) }

    /// The C side's 1 / 0 / -1 as true / false / unknown.
    private static func answer(_ code: Int32) -> Bool? { code < 0 ? nil : code == 1 }

    /// Calls AccessCamera and waits for its Request's Response, up to `timeoutMilliseconds`.
    /// Throws the portal's or the bus's message when there is no answer.
    public func accessCamera(timeoutMilliseconds: Int32) throws(PortalError) -> Answer {
        var message: UnsafeMutablePointer<CChar>?
        let code = ck_portal_access_camera(address, timeoutMilliseconds, &message)
        let text = Self.take(message)
        switch code {
        case 0: return .granted
        case 1: return .cancelled
        case 2: return .ended
        default: throw PortalError(method: "AccessCamera", message: text)
        }
    }

    /// Calls OpenPipeWireRemote: a descriptor of a PipeWire connection for `pipewiresrc fd=`,
    /// which the caller owns.
    public func openPipeWireRemote() throws(PortalError) -> Int32 {
        var message: UnsafeMutablePointer<CChar>?
        let fd = ck_portal_open_pipewire_remote(address, &message)
        let text = Self.take(message)
        guard fd >= 0 else { throw PortalError(method: "OpenPipeWireRemote", message: text) }
        return fd
    }

    private static func take(_ message: UnsafeMutablePointer<CChar>?) -> String {
        defer { g_free(message) }
        return message.map { String(cString: $0) } ?? ""
    }

    /// A portal call that got no answer: the method and GLib's message.
    public struct PortalError: Error, Sendable, CustomStringConvertible {
        public let method: String
        public let message: String
        public var description: String { "\(method): \(message)" }
    }
}
