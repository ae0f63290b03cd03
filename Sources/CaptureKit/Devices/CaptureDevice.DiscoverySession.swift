extension CaptureDevice {
    /// The devices of some types, media type and position (AVCaptureDevice.DiscoverySession).
    ///
    /// ``devices`` is read again on every access, so it follows cameras plugged in and out (as
    /// AVFoundation's, which is key-value observable); it is ordered by `deviceTypes`, then as
    /// ``CaptureDevice/devices()`` orders them (hardware before the virtual cameras).
    public final class DiscoverySession: Sendable {
        /// The types asked for, in order of preference.
        public let deviceTypes: [DeviceType]
        /// The media type asked for; nil for any.
        public let mediaType: MediaType?
        /// The position asked for; `.unspecified` for any.
        public let position: Position

        public init(deviceTypes: [DeviceType], mediaType: MediaType?, position: Position) {
            self.deviceTypes = deviceTypes
            self.mediaType = mediaType
            self.position = position
        }

        /// The devices present now that match, by `deviceTypes` order.
        public var devices: [CaptureDevice] {
            let all = CaptureDevice.devices().filter { device in
                (mediaType.map(device.hasMediaType) ?? true) && (position == .unspecified || device.position == position)
            }
            return deviceTypes.flatMap { type in all.filter { $0.deviceType == type } }
        }
    }

    /// The first device of `deviceType` for `mediaType` at `position` (`.unspecified`: any), as
    /// a discovery session for that one type lists them; nil when none is present.
    public static func `default`(_ deviceType: DeviceType, for mediaType: MediaType?, position: Position) -> CaptureDevice? {
        DiscoverySession(deviceTypes: [deviceType], mediaType: mediaType, position: position).devices.first
    }

    /// The camera an app should use when it has no preference of its own: the user's choice
    /// (``userPreferredCamera``) while it is connected, else `default(for: .video)`.
    public static var systemPreferredCamera: CaptureDevice? {
        if let preferred = userPreferredCamera, preferred.isConnected { return preferred }
        return `default`(for: .video)
    }

    /// The camera the user chose, for ``systemPreferredCamera``; kept for the process.
    public static var userPreferredCamera: CaptureDevice? {
        get { CaptureContext.shared.registry.userPreferredCamera.withLock { $0 } }
        set { CaptureContext.shared.registry.userPreferredCamera.withLock { $0 = newValue } }
    }
}
