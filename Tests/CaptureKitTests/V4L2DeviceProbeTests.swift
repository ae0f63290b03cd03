import CaptureKitV4L2
import Foundation
import GStreamerSwift
import Testing
@testable import CaptureKit

/// A camera given by path is described alone (`V4L2DeviceProbe`), as GstDeviceMonitor's v4l2
/// provider would describe it. The live comparison with the monitor runs where
/// a V4L2 camera exists (scripts/v4l2vm-e2e.sh runs it on vivid).
@Suite("V4L2 device by path", .ownDevices)
struct V4L2DeviceProbeTests {
    static let yuyv = [CapsStructure(name: "video/x-raw", fields: [
        "format": .string("YUY2"), "width": .int(640), "height": .int(480), "framerate": .fraction(25, 1),
    ])]

    @Test("udev database entries: the E: lines are the properties")
    func udevEntry() {
        let entry = "S:v4l/by-id/usb-046d_0825-video-index0\nI:123\nE:ID_VENDOR_ID=046d\nE:ID_MODEL_ID=0825\n"
            + "E:ID_V4L_PRODUCT=UVC Camera (046d:0825)\nE:ID_VENDOR_FROM_DATABASE=Logitech, Inc.\nE:ID_PATH=pci-0000:00:14.0-usb-0:1:1.0\nG:uaccess\n"
        #expect(V4L2DeviceProbe.parseUdevEntry(entry) == [
            "ID_VENDOR_ID": "046d", "ID_MODEL_ID": "0825", "ID_V4L_PRODUCT": "UVC Camera (046d:0825)",
            "ID_VENDOR_FROM_DATABASE": "Logitech, Inc.", "ID_PATH": "pci-0000:00:14.0-usb-0:1:1.0",
        ])
    }

    @Test("a platform camera without udev ids is named by its driver and card, as the monitor names vivid")
    func platformCamera() throws {
        let capability = V4L2Capability(driver: "vivid", card: "vivid", busInfo: "platform:vivid-000", deviceCaps: 0x0520_0001)
        let description = try #require(V4L2DeviceProbe.description(path: "/dev/video0", capability: capability, udev: [:],
                                                                   caps: Self.yuyv, byIDDirectory: "/nonexistent"))
        #expect(description.uniqueID == "/dev/video0" && description.modelID == "vivid vivid")
        #expect(description.name == "vivid" && description.manufacturer == "vivid")
        #expect(description.formats.map(\.description) == CaptureDevice.Format.formats(from: Self.yuyv).map(\.description))
        #expect(capability.isCamera)
    }

    @Test("a USB camera takes its ids and names from udev, with the provider's precedence")
    func usbCamera() throws {
        let capability = V4L2Capability(driver: "uvcvideo", card: "UVC Camera (046d:0825)", busInfo: "usb-0000:00:14.0-1",
                                        deviceCaps: 0x0420_0001)
        let udev = ["ID_VENDOR_ID": "046d", "ID_MODEL_ID": "0825", "ID_VENDOR": "046d", "ID_VENDOR_FROM_DATABASE": "Logitech, Inc.",
                    "ID_MODEL": "0825", "ID_V4L_PRODUCT": "UVC Camera (046d:0825)"]
        let description = try #require(V4L2DeviceProbe.description(path: "/dev/video2", capability: capability, udev: udev,
                                                                   caps: Self.yuyv, byIDDirectory: "/nonexistent"))
        #expect(description.modelID == "046d:0825" && description.manufacturer == "Logitech, Inc.")
        #expect(description.name == "UVC Camera (046d:0825)")
    }

    @Test("output, memory-to-memory and touch nodes are not cameras")
    func notCameras() {
        #expect(!V4L2Capability(driver: "v4l2 loopback", card: "Dummy", busInfo: "", deviceCaps: 0x0520_0002).isCamera)
        #expect(!V4L2Capability(driver: "m2m", card: "codec", busInfo: "", deviceCaps: 0x0000_0003).isCamera)
        #expect(!V4L2Capability(driver: "touch", card: "pad", busInfo: "", deviceCaps: 0x1000_0001).isCamera)
    }

    @Test("a path that is not a V4L2 camera is not found, and the error still lists the devices")
    func notACamera() {
        #expect(V4L2DeviceProbe.describe(path: "/dev/null") == nil)
        #expect(V4L2DeviceProbe.describe(path: "/nonexistent/video0") == nil)
        #expect(throws: CaptureError.self) { try CaptureDevice.find("/dev/null") }
    }

    @Test("vivid by path: described alone as the monitor describes it, and one object with the listed device",
          .enabled(if: FileManager.default.fileExists(atPath: "/dev/video0")))
    func probedByPath() throws {
        let direct = try #require(V4L2DeviceProbe.describe(path: "/dev/video0"))
        let monitored = try #require(DeviceMonitor(deviceClass: "Video/Source", showAll: true).devices()
            .filter { V4L2Kind().describe($0) != nil }.compactMap { V4L2DeviceDescription($0) }.first { $0.path == "/dev/video0" })
        #expect(direct == monitored)
        print("probedByPath: \(direct.name) [\(direct.uniqueID)] model \(direct.modelID), \(direct.formats.count) formats, same as the monitor's")
        let device = try CaptureDevice.find("/dev/video0")
        let listed = try #require(CaptureDevice.devices().first { $0.uniqueID == device.uniqueID })
        #expect(listed === device)
    }
}
