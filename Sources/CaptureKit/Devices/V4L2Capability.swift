import Glibc

/// VIDIOC_QUERYCAP's answer: the driver, card, bus and what the node does.
struct V4L2Capability: Equatable {
    var driver: String
    var card: String
    var busInfo: String
    /// The node's own capabilities (device_caps when the driver gives them).
    var deviceCaps: UInt32

    static let videoCapture: UInt32 = 0x1, videoCaptureMPlane: UInt32 = 0x1000
    static let videoOutput: UInt32 = 0x2, videoOutputMPlane: UInt32 = 0x2000
    static let touch: UInt32 = 0x1000_0000, hasDeviceCaps: UInt32 = 0x8000_0000

    init(driver: String, card: String, busInfo: String, deviceCaps: UInt32) {
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.deviceCaps = deviceCaps
    }

    /// Reads the node's capability; nil when it cannot be opened or is not a V4L2 device.
    init?(path: String) {
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // struct v4l2_capability: driver[16] card[32] bus_info[32] version capabilities
        // device_caps reserved[3] (104 bytes); VIDIOC_QUERYCAP = _IOR('V', 0, struct v4l2_capability).
        var raw = [UInt8](repeating: 0, count: 104)
        let status = raw.withUnsafeMutableBytes { ioctl(fd, 0x8068_5600, $0.baseAddress!) }
        guard status == 0 else { return nil }
        func text(_ range: Range<Int>) -> String {
            String(decoding: raw[range].prefix { $0 != 0 }, as: UTF8.self)
        }
        func word(_ offset: Int) -> UInt32 {
            raw[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }
        let capabilities = word(84)
        self.init(driver: text(0..<16), card: text(16..<48), busInfo: text(48..<80),
                  deviceCaps: capabilities & Self.hasDeviceCaps != 0 ? word(88) : capabilities)
    }

    /// A camera as the provider counts one: captures video, is not a touch sensor, and is not a
    /// memory-to-memory device (which also outputs).
    var isCamera: Bool {
        deviceCaps & (Self.videoCapture | Self.videoCaptureMPlane) != 0 && deviceCaps & Self.touch == 0
            && deviceCaps & (Self.videoOutput | Self.videoOutputMPlane) == 0
    }
}
