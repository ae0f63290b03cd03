import Foundation
import GStreamerSwift
import Testing
@_spi(Plan) @testable import CaptureKit

/// libcamera cameras as the provider reports them (recorded from libcamera 0.0.3 on vimc in the
/// vivid guest, and a Raspberry Pi camera's id): identity, formats, dedupe, and the source chain.
/// Live on vimc: `scripts/v4l2vm-e2e.sh` and the conformance suite's `libcamera-live`.
@Suite("libcamera kind", .ownDevices)
struct LibcameraKindTests {
    /// vimc's Sensor B through libcamera 0.0.3's provider: RGB sizes with no frame rate, then a range.
    static func vimc() throws -> MonitoredDevice {
        let sizes = ["160x120", "640x480", "1280x720", "1920x1080"].map {
            let wh = $0.split(separator: "x")
            return "video/x-raw, format=(string)RGB, width=(int)\(wh[0]), height=(int)\(wh[1])"
        }
        let caps = (sizes + ["video/x-raw, format=(string)RGB, width=(int)[ 48, 4096 ], height=(int)[ 48, 2160 ]"]).joined(separator: "; ")
        return MonitoredDevice(displayName: "platform/vimc.0 Sensor B", deviceClass: "Source/Video", typeName: "GstLibcameraDevice",
                               caps: try CapsStructure.parse(caps: caps))
    }

    static func device(_ id: String, properties: [String: CapsValue] = [:]) throws -> MonitoredDevice {
        MonitoredDevice(displayName: id, deviceClass: "Source/Video", typeName: "GstLibcameraDevice",
                        caps: try CapsStructure.parse(caps: "video/x-raw, format=(string)NV12, width=(int)1536, height=(int)864"),
                        properties: properties)
    }

    @Test("vimc: named by libcamera's id, keyed by it, its sizes with the frame rates the element can ask for, route libcamera")
    func vimcCamera() throws {
        let candidate = try #require(LibcameraKind().describe(try Self.vimc()))
        #expect(candidate.uniqueID == "libcamera:platform/vimc.0 Sensor B" && candidate.sameDevice == [.libcamera("platform/vimc.0 Sensor B")])
        #expect(candidate.precedence > DevicePrecedence.v4l2 && candidate.precedence < DevicePrecedence.pipeWire)
        let device = candidate.make()
        #expect(device.route == "libcamera" && device.localizedName == "vimc.0 Sensor B" && device.position == .unspecified)
        #expect(device.formats.map(\.description) == ["160x120 rgb 1-30 fps", "640x480 rgb 1-30 fps", "1280x720 rgb 1-30 fps",
                                                      "1920x1080 rgb 1-30 fps", "4096x2160 rgb 1-30 fps"])
        #expect(device.capabilities == .automaticOnly)
        let vimc = try Self.vimc()
        #expect(V4L2Kind().describe(vimc) == nil && PipeWireKind().describe(vimc) == nil)
    }

    @Test("a Pi camera: the sensor is its name; Location (libcamera 0.5.2+'s provider) is its position; USB webcams stay V4L2's")
    func identity() throws {
        let imx708 = try #require(LibcameraKind().describe(try Self.device("/base/soc/i2c0mux/i2c@1/imx708@1a")))
        #expect(imx708.make().localizedName == "imx708" && imx708.make().position == .unspecified)
        let located = try Self.device("/base/axi/pcie@120000/rp1/i2c@88000/imx708@1a",
                                      properties: ["api.libcamera.Location": .int(0), "api.libcamera.Model": .string("imx708_wide")])
        let front = try #require(LibcameraKind().describe(located)).make()
        #expect(front.position == .front && front.localizedName == "imx708_wide")
        #expect(LibcameraKind.position(.string("1")) == .back && LibcameraKind.position(.int(2)) == .unspecified)
        #expect(LibcameraKind().describe(try Self.device("\\_SB_.PCI0.XHC_.RHUB.HS08-8:1.0-046d:0825")) == nil)
        #expect(LibcameraKind.isUSB("\\_SB_.PCI0.XHC_.RHUB.HS08-8:1.0-5986:2113") && !LibcameraKind.isUSB("platform/vimc.0 Sensor B"))
    }

    @Test("a camera both libcamera and PipeWire serve is listed once, through PipeWire; libcamera's id still opens it directly")
    func sharedThroughPipeWire() throws {
        let node = MonitoredDevice(displayName: "imx708", deviceClass: "Video/Source", typeName: "GstPipeWireDevice",
                                   caps: try CapsStructure.parse(caps: "video/x-raw, format=(string)NV12, width=(int)1536, height=(int)864, framerate=(fraction)30/1"),
                                   properties: ["node.name": .string("libcamera_input._base_soc_i2c0mux_i2c_1_imx708_1a"),
                                                "api.libcamera.path": .string("/base/soc/i2c0mux/i2c@1/imx708@1a")])
        let registry = DeviceRegistry()
        for found in [try Self.device("/base/soc/i2c0mux/i2c@1/imx708@1a"), node] {
            _ = registry.register(try #require(DeviceRegistry.describe(found, kinds: [LibcameraKind(), PipeWireKind()])))
        }
        #expect(registry.cameras().map(\.route) == ["pipewire"])
        #expect(registry.device(uniqueID: "libcamera:/base/soc/i2c0mux/i2c@1/imx708@1a")?.route == "libcamera")
    }

    @Test("the source asks the camera for the format's size and rate, accepts its alignment within 16 pixels, takes frames off libcamera's thread, and scales back")
    func sourceChain() throws {
        let device = try #require(LibcameraKind().describe(try Self.vimc())).make()
        let format = try #require(device.formats.first { $0.width == 640 })
        let elements = LibcameraBackend(cameraID: "platform/vimc.0 Sensor B").sourceElements(prefix: "in0", device: device, format: format)
        #expect(elements.map(\.factory).prefix(5) == ["libcamerasrc", "capsfilter", "queue", "videoconvert", "videoscale"])
        #expect(elements[2].properties.map(\.value) == [.nick("downstream"), 2, 0, 0], "a leaky queue of two frames")
        #expect(elements[0].properties.map(\.value) == [.string("platform/vimc.0 Sensor B")])
        let caps = LibcameraBackend.cameraCaps(format, frameRate: 30)
        #expect(caps == "video/x-raw,format=RGB,width=640,height=480,framerate=30/1;video/x-raw,format=RGB,width=[624,656],height=[464,496],framerate=30/1")
        #expect(try CapsStructure.parse(caps: caps).count == 2)
    }

    @Test("frames are copied out of libcamera's buffers for the element versions whose held buffers crash it (before 0.6)")
    func copiedVersions() {
        for version in ["0.0.3", "0.4.0", "0.5.2", "0.5.2+rpt20250903", nil] as [String?] {
            #expect(LibcameraBackend.holdsBuffersUnsafely(version: version), "\(version ?? "unknown")")
        }
        for version in ["0.6.0", "0.7.1+rpt20260429", "1.0"] {
            #expect(!LibcameraBackend.holdsBuffersUnsafely(version: version), "\(version)")
        }
    }
}
