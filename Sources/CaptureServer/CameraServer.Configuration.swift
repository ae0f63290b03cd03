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
        /// Origins besides the server's own page that may change things and open WebSockets
        /// (`https://camera.example.com` behind a reverse proxy, a WHEP player's page):
        /// `scheme://host[:port]`. Their hosts are also taken as this server's names in `Host`.
        public var allowedOrigins: [String]
        /// Timeouts and the connection limit.
        public var limits: Limits
        /// Records all the time, in segments of this many seconds, into `continuous/` in the
        /// recordings' folder, marking events (`POST /api/events`) in its index; nil: no
        /// continuous recording.
        public var segmentDuration: Double?
        /// Which continuous segments are deleted, oldest first.
        public var segmentRetention: SegmentRetention
        /// What the camera sees that marks an event in the continuous recording (besides
        /// `POST /api/events`): codes, faces, motion. Needs ``segmentDuration``.
        public var eventTriggers: Set<MetadataEventTrigger.Kind>
        /// The events' pre- and post-roll (clips are never written: events are marked in the
        /// index).
        public var eventRecording: EventRecording
        /// How motion is detected for a `.motion` trigger.
        public var motionDetection: MotionDetectionSettings
        /// Text burned into the encoded video (the page's WebRTC picture, recordings and the
        /// continuous recording, which share the encode); nil: none.
        public var videoOverlay: VideoOverlay?

        /// A configuration; `token` nil leaves the server open, which only loopback allows.
        public init(device: String = "default", host: String = "127.0.0.1", port: Int = 8080, token: String? = nil,
                    recordingsDirectory: URL = URL(fileURLWithPath: "recordings", isDirectory: true), preset: SessionPreset = .high,
                    allowedOrigins: [String] = [], limits: Limits = Limits(), segmentDuration: Double? = nil,
                    segmentRetention: SegmentRetention = SegmentRetention(), eventTriggers: Set<MetadataEventTrigger.Kind> = [],
                    eventRecording: EventRecording = EventRecording(writesClips: false), motionDetection: MotionDetectionSettings = MotionDetectionSettings(),
                    videoOverlay: VideoOverlay? = nil) {
            self.device = device
            self.host = host
            self.port = port
            self.token = token
            self.recordingsDirectory = recordingsDirectory
            self.preset = preset
            self.allowedOrigins = allowedOrigins
            self.limits = limits
            self.segmentDuration = segmentDuration
            self.segmentRetention = segmentRetention
            self.eventTriggers = eventTriggers
            self.eventRecording = eventRecording
            self.motionDetection = motionDetection
            self.videoOverlay = videoOverlay
        }

        /// Whether `host` only reaches this machine: every address it resolves to is in
        /// 127.0.0.0/8 or ::1 (false when it does not resolve, or resolves to others too).
        /// Decided on the addresses, not the spelling: `127.evil.test` may resolve anywhere.
        public var isLoopback: Bool {
            (try? ListenAddress(host: host))?.isLoopback ?? false
        }

        /// A new random token (32 bytes from the system's CSPRNG, URL-safe base64), for a
        /// server that listens beyond loopback.
        public static func generateToken() -> String { TokenMiddleware<ServerContext>.generate() }

        /// Throws `invalidSetting` for a port outside 0…65535, an empty host or token, a host
        /// that does not resolve or resolves to loopback and other addresses, a host beyond
        /// loopback without a token, an allowed origin that is not `scheme://host[:port]`, or
        /// a limit out of range. Returns the address to bind.
        @discardableResult
        func validate() throws(CaptureError) -> ListenAddress {
            guard (0...65535).contains(port) else { throw .invalidSetting(name: "port", value: "\(port)", valid: "0…65535 (0: any free port)") }
            guard !host.isEmpty else { throw .invalidSetting(name: "listen host", value: host, valid: "an address such as 127.0.0.1 or 0.0.0.0") }
            if let token, token.isEmpty || token.contains(where: { $0.isWhitespace }) {
                throw .invalidSetting(name: "token", value: "'\(token)'", valid: "a non-empty token without spaces")
            }
            let address = try ListenAddress(host: host)
            guard token != nil || address.isLoopback else {
                throw .invalidSetting(name: "listen address without a token", value: "\(host) (\(address.resolved.joined(separator: ", ")))",
                                      valid: "a host whose addresses are all loopback (127.0.0.1, ::1, localhost), or a token (--token, or generated)")
            }
            for origin in allowedOrigins where RequestOriginPolicy.normalizedOrigin(origin) == nil {
                throw .invalidSetting(name: "allowed origin", value: origin, valid: "scheme://host[:port] with scheme http or https, e.g. https://camera.example.com")
            }
            try limits.validate()
            if !eventTriggers.isEmpty, segmentDuration == nil {
                throw .invalidSetting(name: "event triggers", value: eventTriggers.map(\.rawValue).sorted().joined(separator: ","),
                                      valid: "none without a continuous recording: set segmentDuration")
            }
            return address
        }

        /// The `Host` names the server answers to (``RequestOriginPolicy`` adds the allowed
        /// origins' hosts): its listen name and address, loopback's names, and this machine's
        /// name and interface addresses when it listens beyond loopback.
        func serverHosts(_ address: ListenAddress) -> [String] {
            var hosts = [host, address.address] + address.resolved + ["localhost", "127.0.0.1", "::1"]
            if address.isWildcard || !address.isLoopback {
                let name = CameraServer.hostName()
                hosts += [name, name + ".local"] + ListenAddress.interfaceAddresses()
            }
            return hosts
        }
    }
}
