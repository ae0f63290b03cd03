import CaptureKit
import Foundation

extension CameraServer {
    /// What `capture serve` is told: the camera, where to listen, the token, the recordings'
    /// folder.
    public struct Configuration: Sendable, Hashable {
        /// The camera, as `capture devices` names it: a uniqueID, an index, `virtual`,
        /// `virtual-front`, or `default`.
        public var device: String
        /// The address to listen on: `127.0.0.1` (loopback) by default; anything else needs
        /// ``token``.
        public var host: String
        /// The port; 0 takes a free one (``CameraServer/waitUntilListening()`` tells which).
        public var port: Int
        /// The token every request must carry (`Authorization: Bearer TOKEN` or `?token=`);
        /// nil: none is asked for, which only a loopback ``host`` allows.
        public var token: String?
        /// Where recordings go and `/recordings/` serves from; created if need be.
        public var recordingsDirectory: URL
        /// The session preset (default `.high`, the camera's largest format).
        public var preset: SessionPreset

        /// A configuration; `token` nil leaves the server open, which only loopback allows.
        public init(device: String = "default", host: String = "127.0.0.1", port: Int = 8080, token: String? = nil,
                    recordingsDirectory: URL = URL(fileURLWithPath: "recordings", isDirectory: true), preset: SessionPreset = .high) {
            self.device = device
            self.host = host
            self.port = port
            self.token = token
            self.recordingsDirectory = recordingsDirectory
            self.preset = preset
        }

        /// Whether `host` only reaches this machine: `127.x.x.x`, `::1` or `localhost`.
        public var isLoopback: Bool {
            let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
        }

        /// A new random token (32 bytes from the system's CSPRNG, URL-safe base64), for a
        /// server that listens beyond loopback.
        public static func generateToken() -> String { TokenMiddleware<ServerContext>.generate() }

        /// Throws `invalidSetting` for a port outside 0…65535, an empty host or token, or a
        /// host beyond loopback without a token.
        func validate() throws(CaptureError) {
            guard (0...65535).contains(port) else { throw .invalidSetting(name: "port", value: "\(port)", valid: "0…65535 (0: any free port)") }
            guard !host.isEmpty else { throw .invalidSetting(name: "listen host", value: host, valid: "an address such as 127.0.0.1 or 0.0.0.0") }
            if let token, token.isEmpty || token.contains(where: { $0.isWhitespace }) {
                throw .invalidSetting(name: "token", value: "'\(token)'", valid: "a non-empty token without spaces")
            }
            guard token != nil || isLoopback else {
                throw .invalidSetting(name: "listen address without a token", value: host,
                                      valid: "a loopback address (127.0.0.1, ::1, localhost), or a token (--token, or generated)")
            }
        }
    }
}
