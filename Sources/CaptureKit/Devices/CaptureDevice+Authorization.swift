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

    /// The status for video or audio; other media types are an error.
    public static func authorizationStatus(for mediaType: MediaType) throws(CaptureError) -> AuthorizationStatus {
        try Authorization.status(for: mediaType, nodes: Authorization.deviceNodes(for: mediaType))
    }

    /// Asks for access. Without a running camera portal this answers from the status at once:
    /// true when authorized.
    public static func requestAccess(for mediaType: MediaType) async throws(CaptureError) -> Bool {
        try authorizationStatus(for: mediaType) == .authorized
    }

    /// Asks for access and calls `handler` with the answer, as seed 004 does. The handler runs
    /// on an arbitrary queue, as AVFoundation's does: hop to your own before touching UI state.
    /// A media type that needs no permission (or is unknown) answers false.
    public static func requestAccess(for mediaType: MediaType, completionHandler handler: @escaping @Sendable (Bool) -> Void) {
        DispatchQueue.global().async { handler((try? authorizationStatus(for: mediaType)) == .authorized) }
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
