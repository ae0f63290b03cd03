import Foundation
import GStreamerSwift
import Testing
@testable import CaptureKit

/// Device identity and choice as seed 000 describes them: an instance never reconnects, a real
/// camera comes before the virtual ones, and V4L2 says where a camera faces.
@Suite("Device identity", .ownDevices, .serialized)
struct DeviceIdentityTests {
    /// A USB camera as the device monitor would describe it.
    static func camera(_ id: String = "usb-Test_Camera-video-index0") throws -> V4L2DeviceDescription {
        let caps = try CapsStructure.parse(caps: "video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, framerate=(fraction)30/1")
        return try #require(V4L2DeviceDescription(displayName: "Test Camera",
                                                  properties: ["device.path": .string("/nonexistent/video-\(id)"), "device.serial": .string(id)],
                                                  caps: caps, byIDDirectory: "/nonexistent"))
    }

    @Test("a camera unplugged and plugged in again is a new device; the old instance stays disconnected (seed 000)")
    func replug() throws {
        let registry = DeviceRegistry()
        let description = try Self.camera()
        let first = registry.register(try #require(description.candidate))
        #expect(first.isConnected)
        #expect(registry.unregister(uniqueID: description.uniqueID) === first && !first.isConnected)
        let second = registry.register(try #require(description.candidate))
        #expect(second !== first && second != first && second.uniqueID == first.uniqueID)
        #expect(second.isConnected && !first.isConnected, "the old instance never reconnects")
        #expect(registry.register(try #require(description.candidate)) === second, "a camera still connected is the same object")
    }

    @Test("the virtual cameras are listed only without hardware or when asked, always found by uniqueID; hardware is the default")
    func virtualListing() throws {
        let registry = DeviceRegistry()
        registry.listsVirtual.store(false, ordering: .relaxed)
        let none = registry.cameras().filter { !($0.backend is VirtualCameraBackend) }
        if none.isEmpty {
            #expect(registry.cameras().map(\.uniqueID) == ["virtual:back", "virtual:front"], "no hardware: the virtual cameras stand in")
        }
        let camera = registry.register(try #require(try Self.camera().candidate))
        #expect(!registry.cameras().contains { $0.backend is VirtualCameraBackend } && registry.cameras().contains(camera))
        let front = registry.device(uniqueID: "virtual:front")
        #expect(front?.uniqueID == "virtual:front" && front === registry.device(uniqueID: "virtual:front") && front !== CaptureDevice.find(virtual: .front),
                "the registry's own virtual camera, the same object each time, and not another context's")
        #expect(registry.defaultDevice(for: .video) == camera)
        registry.listsVirtual.store(true, ordering: .relaxed)
        #expect(registry.cameras().suffix(2).map(\.uniqueID) == ["virtual:back", "virtual:front"])
        #expect(registry.defaultDevice(for: .video) == camera, "hardware first, even with the virtual cameras listed")
        _ = registry.unregister(uniqueID: camera.uniqueID)
        registry.listsVirtual.store(false, ordering: .relaxed)
        #expect(registry.cameras().map(\.uniqueID).suffix(2) == ["virtual:back", "virtual:front"], "unplugged: the virtual cameras again")
        #expect(registry.devices() == registry.cameras() + registry.microphones(), "every device: cameras, then microphones")
    }

    @Test("position comes from V4L2's camera_orientation control: 0 front, 1 back, 2 external")
    func position() throws {
        func table(_ value: Int) throws -> V4L2ControlTable {
            try V4L2ControlTable(parsing: """
                Camera Controls

                             camera_orientation 0x009a0922 (menu)   : min=0 max=2 default=\(value) value=\(value) flags=read-only
                                                0: Front
                                                1: Back
                                                2: External
                """)
        }
        #expect(try V4L2DeviceDescription.position(table(0)) == .front)
        #expect(try V4L2DeviceDescription.position(table(1)) == .back)
        #expect(try V4L2DeviceDescription.position(table(2)) == .unspecified)
        #expect(try V4L2DeviceDescription.position(V4L2ControlTests.table("logitech-c920")) == .unspecified, "a USB webcam without the control")
    }
}

extension DeviceIdentityTests {
    @Test("a V4L2 camera's formats report the exposure, ISO and zoom limits its controls give (recorded C920 and C270)")
    func formatLimits() throws {
        let c920 = try Self.camera("usb-C920").makeDevice(controls: try V4L2ControlTests.table("logitech-c920"))
        let format = c920.activeFormat
        let mapping = try #require(c920.v4l2Mapping)
        let durations = try #require(mapping.exposureDurationRange)
        #expect(format.minExposureDuration == durations.lowerBound && format.maxExposureDuration == durations.upperBound)
        #expect(format.minExposureDuration > .zero && format.maxExposureDuration.seconds > 0.1, "\(format.minExposureDuration)…\(format.maxExposureDuration)")
        #expect(format.minISO > 0 && format.maxISO > format.minISO, "\(format.minISO)…\(format.maxISO)")
        #expect(format.videoMaxZoomFactor == 5 && format.videoZoomFactorUpscaleThreshold == 5, "zoom_absolute 100…500 is optical")
        #expect(c920.formats.allSatisfy { $0.maxISO == format.maxISO })
        let c270 = try Self.camera("usb-C270").makeDevice(controls: try V4L2ControlTests.table("logitech-c270"))
        #expect(c270.activeFormat.videoMaxZoomFactor == DigitalZoom.maxFactor && c270.activeFormat.videoZoomFactorUpscaleThreshold == 1,
                "no zoom control: digital zoom, all of it upscaling")
        #expect(c270.activeFormat.maxExposureDuration > .zero)
    }
}
