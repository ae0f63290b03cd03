import CGStreamer

/// VIDIOC_QUERYCAP's answer: the driver, card, bus and what the node does.
public struct V4L2Capability: Equatable, Sendable {
    public var driver: String
    public var card: String
    public var busInfo: String
    /// The node's own capabilities (device_caps when the driver gives them).
    public var deviceCaps: UInt32

    static let videoCapture: UInt32 = 0x1, videoCaptureMPlane: UInt32 = 0x1000
    static let videoOutput: UInt32 = 0x2, videoOutputMPlane: UInt32 = 0x2000
    static let touch: UInt32 = 0x1000_0000
    /// V4L2_CAP_IO_MC: the node's input is chosen through the media controller.
    public static let mediaControllerIO: UInt32 = 0x2000_0000

    public init(driver: String, card: String, busInfo: String, deviceCaps: UInt32) {
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.deviceCaps = deviceCaps
    }

    /// Reads the node's capability; nil when it cannot be opened or is not a V4L2 device.
    public init?(path: String) {
        let fd = ck_v4l2_open(path)
        guard fd >= 0 else { return nil }
        defer { ck_v4l2_close(fd) }
        var raw = ck_v4l2_capability()
        guard ck_v4l2_query_capability(fd, &raw) == 0 else { return nil }
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        self.init(driver: text(raw.driver), card: text(raw.card), busInfo: text(raw.bus_info), deviceCaps: raw.device_caps)
    }

    /// A node whose I/O the media controller routes (`V4L2_CAP_IO_MC`: unicam, rp1-cfe, rkisp1,
    /// ipu3, vimc) gives nothing until a pipeline of sub-devices is set up, which is libcamera's
    /// work; discovery does not list such nodes, though a path given explicitly still opens one.
    public var isMediaControllerCentric: Bool { deviceCaps & Self.mediaControllerIO != 0 }

    /// A camera as GStreamer's v4l2 device provider counts one: captures video, is not a touch
    /// sensor, and is not a memory-to-memory device (which also outputs).
    public var isCamera: Bool {
        deviceCaps & (Self.videoCapture | Self.videoCaptureMPlane) != 0 && deviceCaps & Self.touch == 0
            && deviceCaps & (Self.videoOutput | Self.videoOutputMPlane) == 0
    }
}
