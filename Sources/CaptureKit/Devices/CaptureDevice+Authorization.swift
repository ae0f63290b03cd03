import Foundation

extension CaptureDevice {
    /// Whether the process may use devices of a media type (AVAuthorizationStatus), Linux meaning.
    public enum AuthorizationStatus: String, Sendable, Hashable {
        /// Inside a sandbox whose camera portal has not been asked.
        case notDetermined
        /// Policy forbids access.
        case restricted
        /// A device node exists that the process cannot open (EACCES: not in the `video` group).
        case denied
        /// Every device node can be opened, or only the virtual camera exists.
        case authorized
    }

    /// The status for video or audio; other media types are an error. Where a camera portal
    /// runs (xdg-desktop-portal: a Flatpak sandbox, a desktop session), video's status is the
    /// portal's answer to `requestAccess(for:)`: `notDetermined` until it is asked.
    public static func authorizationStatus(for mediaType: MediaType) throws(CaptureError) -> AuthorizationStatus {
        if mediaType == .video, CameraPortal.current() != nil {
            return switch CameraPortal.answer.withLock({ $0 }) {
            case true?: .authorized
            case false?: .denied
            case nil: .notDetermined
            }
        }
        return try Authorization.status(for: mediaType, nodes: Authorization.deviceNodes(for: mediaType))
    }

    /// Asks for access. For video where a camera portal runs, it asks the portal
    /// (`AccessCamera`: the desktop may ask the user) and waits for the answer, then keeps the
    /// PipeWire connection the portal grants for the cameras' sources; a later call answers
    /// from the first. Without a portal it answers from the status at once: true when authorized.
    public static func requestAccess(for mediaType: MediaType) async throws(CaptureError) -> Bool {
        if mediaType == .video, let portal = CameraPortal.current() {
            if let known = CameraPortal.answer.withLock({ $0 }) { return known }
            let asked: Result<Bool, CaptureError> = await withCheckedContinuation { continuation in
                // The request blocks while the user decides: on a thread of its own, not the pool's.
                Thread { continuation.resume(returning: Result { () throws(CaptureError) in try CameraPortal.requestAccess(portal) }) }.start()
            }
            return try asked.get()
        }
        return try authorizationStatus(for: mediaType) == .authorized
    }

    /// Asks for access and calls `handler` with the answer, as seed 004 does. The handler runs
    /// on an arbitrary queue, as AVFoundation's does: hop to your own before touching UI state.
    /// A media type that needs no permission (or is unknown), or a portal that did not answer,
    /// answers false.
    public static func requestAccess(for mediaType: MediaType, completionHandler handler: @escaping @Sendable (Bool) -> Void) {
        Task { handler((try? await requestAccess(for: mediaType)) ?? false) }
    }
}

/// File-system checks behind authorization.
enum Authorization {
    static func deviceNodes(for mediaType: MediaType) -> [String] {
        let (directory, prefix) = mediaType == .video ? ("/dev", "video") : ("/dev/snd", "pcm")
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.filter { $0.hasPrefix(prefix) }.sorted().map { directory + "/" + $0 }
    }

    static func status(for mediaType: MediaType, nodes: [String],
                       sandboxed: Bool = FileManager.default.fileExists(atPath: "/.flatpak-info"),
                       canOpen: (String) -> Bool = { access($0, R_OK | W_OK) == 0 }) throws(CaptureError) -> CaptureDevice.AuthorizationStatus {
        guard mediaType == .video || mediaType == .audio else { throw .unsupportedMediaType(mediaType) }
        if sandboxed && nodes.isEmpty { return .notDetermined }
        return nodes.allSatisfy(canOpen) ? .authorized : .denied
    }
}
