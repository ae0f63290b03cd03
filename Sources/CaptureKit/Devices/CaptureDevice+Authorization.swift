import Foundation

extension CaptureDevice {
    /// Whether the process may use devices of a media type (AVAuthorizationStatus, with its
    /// integer raw values), Linux meaning.
    public enum AuthorizationStatus: Int, Sendable, Hashable, CaseIterable {
        /// Inside a sandbox whose camera portal has not been asked.
        case notDetermined = 0
        /// Policy forbids access.
        case restricted = 1
        /// A device node exists that the process cannot open (EACCES: not in the `video` group).
        case denied = 2
        /// Every device node can be opened, or only the virtual camera exists.
        case authorized = 3
    }

    /// The status for video or audio. Where a camera portal runs (xdg-desktop-portal: a
    /// Flatpak sandbox, a desktop session), video's status is the portal's answer to
    /// `requestAccess(for:)`: `notDetermined` until it is asked. Another media type, which
    /// AVFoundation raises on, is `restricted`, logged and posted as `.CaptureConfigurationError`;
    /// ``Checked/authorizationStatus(for:)`` throws instead.
    public static func authorizationStatus(for mediaType: MediaType) -> AuthorizationStatus {
        do {
            return try Checked.authorizationStatus(for: mediaType)
        } catch {
            CaptureLog.logger.error("authorizationStatus(for: \(mediaType)) refused: \(error)")
            NotificationCenter.default.post(name: .CaptureConfigurationError, object: nil, userInfo: [CaptureSessionErrorKey: error])
            return .restricted
        }
    }

    /// Asks for access; answers false, logging why, where ``Checked/requestAccess(for:)`` throws.
    /// For video where a camera portal runs, it asks the portal (`AccessCamera`: the desktop may
    /// ask the user) and waits for the answer; without a portal it answers from the status at once.
    public static func requestAccess(for mediaType: MediaType) async -> Bool {
        do {
            return try await Checked.requestAccess(for: mediaType)
        } catch {
            CaptureLog.logger.error("requestAccess(for: \(mediaType)) failed: \(error)")
            return false
        }
    }
}

extension CaptureDevice.Checked {
    /// The status for video or audio; other media types throw `unsupportedMediaType`.
    public static func authorizationStatus(for mediaType: MediaType) throws(CaptureError) -> CaptureDevice.AuthorizationStatus {
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
}

extension CaptureDevice {

    /// Asks for access and calls `handler` with the answer, as seed 004 does. The handler runs
    /// on an arbitrary queue, as AVFoundation's does: hop to your own before touching UI state.
    /// A media type that needs no permission (or is unknown), or a portal that did not answer,
    /// answers false.
    public static func requestAccess(for mediaType: MediaType, completionHandler handler: @escaping @Sendable (Bool) -> Void) {
        Task { handler(await requestAccess(for: mediaType)) }
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
