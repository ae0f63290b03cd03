import CaptureKitV4L2
import Foundation
import GStreamerSwift
import Testing
@testable import CaptureKit

/// Discovery through device kinds: each kind takes only its own provider's devices, raw nodes of
/// media-controller pipelines are never cameras, and one camera found several ways is listed once.
@Suite("Device kinds and dedupe", .ownDevices)
struct DeviceKindTests {
    static let caps = "video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, framerate=(fraction)30/1"

    /// A camera as GStreamer 1.22's v4l2 provider reports it.
    static func v4l2Device(_ path: String = "/dev/video0", deviceCaps: Int = 0x0420_0001) throws -> MonitoredDevice {
        MonitoredDevice(displayName: "UVC Camera (046d:0825)", deviceClass: "Video/Source", typeName: "GstV4l2Device",
                        caps: try CapsStructure.parse(caps: caps),
                        properties: ["device.path": .string(path), "v4l2.device.driver": .string("uvcvideo"),
                                     "v4l2.device.card": .string("UVC Camera (046d:0825)"), "v4l2.device.bus_info": .string("usb-0000:00:14.0-1"),
                                     "v4l2.device.device_caps": .int(deviceCaps), "device.vendor.id": .string("046d"),
                                     "device.product.id": .string("0825")])
    }

    /// The same camera as PipeWire 0.3.65's provider reports it (every property a string).
    static func pipeWireDevice(_ path: String = "/dev/video0") throws -> MonitoredDevice {
        MonitoredDevice(displayName: "UVC Camera (046d:0825) (V4L2)", deviceClass: "Video/Source", typeName: "GstPipeWireDevice",
                        caps: try CapsStructure.parse(caps: caps),
                        properties: ["object.path": .string("v4l2:\(path)"), "api.v4l2.path": .string(path), "node.name": .string("v4l2_input.pci-0000_00_14.0-usb-0_1_1.0"),
                                     "media.role": .string("Camera"), "object.serial": .string("36"), "device.api": .string("v4l2")])
    }

    /// A camera as libcamera 0.0.3's provider reports it: no properties, the id as its name.
    static func libcameraDevice() throws -> MonitoredDevice {
        MonitoredDevice(displayName: "/base/soc/i2c0mux/i2c@1/imx708@1a", deviceClass: "Source/Video", typeName: "GstLibcameraDevice",
                        caps: try CapsStructure.parse(caps: caps))
    }

    let kind = V4L2Kind(byIDDirectory: "/nonexistent")

    @Test("the v4l2 kind takes the v4l2 provider's cameras only: not PipeWire's or libcamera's devices of the same node")
    func v4l2KindTakesItsOwn() throws {
        let candidate = try #require(kind.describe(try Self.v4l2Device()))
        #expect(candidate.uniqueID == "/dev/video0" && candidate.sameDevice == [.v4l2Node("/dev/video0")])
        #expect(candidate.precedence == DevicePrecedence.v4l2)
        #expect(kind.describe(try Self.pipeWireDevice()) == nil, "a PipeWire node is not opened behind PipeWire's back")
        #expect(kind.describe(try Self.libcameraDevice()) == nil)
        #expect(MicrophoneKind().describe(try Self.v4l2Device()) == nil)
    }

    @Test("raw media-controller nodes (V4L2_CAP_IO_MC: unicam, rp1-cfe, vimc) are never listed as cameras")
    func mediaControllerNodes() throws {
        #expect(kind.describe(try Self.v4l2Device(deviceCaps: 0x2420_0001)) == nil)
        #expect(V4L2Capability(driver: "unicam", card: "unicam", busInfo: "platform:3f801000.csi", deviceCaps: 0x2420_0001).isMediaControllerCentric)
        #expect(!V4L2Capability(driver: "uvcvideo", card: "c920", busInfo: "usb-1", deviceCaps: 0x0420_0001).isMediaControllerCentric)
    }

    @Test("a camera reported by every provider, in any order, is listed once: through PipeWire, which shares it; its node still opens directly")
    func everyProviderOnce() throws {
        let found = [try Self.v4l2Device(), try Self.pipeWireDevice(), try Self.libcameraDevice()]
        let kinds: [any DeviceKind] = [kind, PipeWireKind()]
        for order in [found, found.reversed()] {
            let candidates = order.compactMap { DeviceRegistry.describe($0, kinds: kinds) }
            #expect(Set(candidates.map(\.uniqueID)) == ["/dev/video0", "pipewire:v4l2_input.pci-0000_00_14.0-usb-0_1_1.0"])
            let registry = DeviceRegistry()
            for candidate in candidates { _ = registry.register(candidate) }
            #expect(registry.cameras().map(\.uniqueID) == ["pipewire:v4l2_input.pci-0000_00_14.0-usb-0_1_1.0"], "listed once, through PipeWire")
            #expect(registry.cameras().first?.route == "pipewire" && registry.device(uniqueID: "/dev/video0")?.route == "v4l2")
        }
    }

    @Test("PipeWire's node: named by node.name, keyed by its V4L2 node, its vendor id as V4L2's udev spells it; other providers' devices are not its")
    func pipeWireKind() throws {
        var node = try Self.pipeWireDevice()
        node.properties["device.vendor.id"] = .string("0x046d")
        node.properties["device.product.id"] = .string("0x0825")
        let candidate = try #require(PipeWireKind().describe(node))
        #expect(candidate.sameDevice == [.v4l2Node("/dev/video0")] && candidate.precedence > DevicePrecedence.v4l2)
        let device = candidate.make()
        #expect(device.modelID == "046d:0825" && device.localizedName == "UVC Camera (046d:0825) (V4L2)" && device.route == "pipewire")
        #expect(device.formats.map(\.description) == ["640x480 yuy2 30 fps"])
        let v4l2 = try Self.v4l2Device(), libcamera = try Self.libcameraDevice()
        #expect(PipeWireKind().describe(v4l2) == nil && PipeWireKind().describe(libcamera) == nil)
    }

    @Test("entries of one device are listed once, by the highest precedence, else the first found; others are kept")
    func precedence() {
        func entry(_ id: String, _ keys: Set<PhysicalKey>, _ precedence: Int) -> DeviceRegistry.Entry {
            let format = CaptureDevice.Format(pixelFormat: .yuy2, width: 640, height: 480,
                                              videoSupportedFrameRateRanges: [.init(minFrameRate: 30, maxFrameRate: 30)])
            let device = CaptureDevice(uniqueID: id, modelID: "m", localizedName: id, manufacturer: "x", position: .unspecified,
                                       formats: [format], activeFormat: format, backend: V4L2Backend(path: "/nonexistent"))
            return .init(device: device, sameDevice: keys, precedence: precedence)
        }
        let direct = entry("direct", [.v4l2Node("/dev/video0")], 15)
        let shared = entry("shared", [.v4l2Node("/dev/video0")], 30)
        let csi = entry("csi", [.libcamera("imx708")], 20)
        let other = entry("other", [.v4l2Node("/dev/video2")], 15)
        let twin = entry("twin", [.v4l2Node("/dev/video2")], 15)
        let listed = DeviceRegistry.listed([direct, csi, shared, other, twin]).map(\.device.uniqueID)
        #expect(listed == ["csi", "shared", "other"])
        #expect(DeviceRegistry.listed([direct, csi]).map(\.device.uniqueID) == ["direct", "csi"], "nothing shared, nothing hidden")
    }

    @Test("the video monitor shows every provider's devices; each is a kind's or no one's, never a crash")
    func liveMonitor() {
        let monitor = DeviceMonitor(deviceClass: "Video/Source", showAll: true)
        for found in monitor.devices() {
            #expect(!found.typeName.isEmpty, "\(found.displayName)")
            _ = DeviceRegistry.describe(found, kinds: DeviceKinds.monitoring("Video/Source"))
        }
    }
}
