import Foundation
import Testing
@_spi(Benchmark) @testable import CaptureKit

/// `hardwareCost`'s figures for cameras this machine does not have: USB cameras sharing a bus,
/// on sysfs trees laid out as the kernel lays them out.
@Suite("Hardware cost of cameras together", .ownDevices)
struct HardwareLoadTests {
    static func format(_ pixelFormat: PixelFormat, _ width: Int, _ height: Int) -> CaptureDevice.Format {
        CaptureDevice.Format(pixelFormat: pixelFormat, width: width, height: height,
                             videoSupportedFrameRateRanges: [.init(minFrameRate: 5, maxFrameRate: 30)])
    }

    @Test("a USB camera's bus and speed come from its USB device in sysfs; a platform camera has none")
    func usbBus() throws {
        let root = try DeviceTypeTests.tree(chain: DeviceTypeTests.usb, attributes: [
            "pci0000:00/0000:00:14.0/usb1/1-1": ["idVendor": "046d\n", "busnum": "1\n", "speed": "480\n"],
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bus = try #require(V4L2Backend.usbBus(ofNode: "/dev/video0", sysfs: root))
        #expect(bus.bus == "1" && bus.megabitsPerSecond == 480)
        let platform = try DeviceTypeTests.tree(chain: ["platform", "vivid.0"], attributes: [:])
        defer { try? FileManager.default.removeItem(atPath: platform) }
        #expect(V4L2Backend.usbBus(ofNode: "/dev/video0", sysfs: platform) == nil)
    }

    @Test("two YUYV 720p webcams at 30 fps do not fit one USB 2 bus; at 480p, or sending MJPEG, or on two buses they do")
    func usbCameras() {
        let yuyv720 = HardwareLoad.usb(bus: "1", megabitsPerSecond: 480, format: Self.format(.yuy2, 1280, 720), frameRate: 30)
        // 1280 × 720 × 16 bits × 30 = 442 Mbit/s against 384 Mbit/s of periodic bandwidth.
        #expect(abs(yuyv720.share - 1.152) < 0.001)
        #expect(HardwareLoad.cost(of: [yuyv720, yuyv720]) > 2.3)
        let yuyv480 = HardwareLoad.usb(bus: "1", megabitsPerSecond: 480, format: Self.format(.yuy2, 640, 480), frameRate: 30)
        #expect(HardwareLoad.cost(of: [yuyv480, yuyv480]) < 0.8)
        let mjpeg1080 = HardwareLoad.usb(bus: "1", megabitsPerSecond: 480, format: Self.format(.mjpeg, 1920, 1080), frameRate: 30)
        #expect(HardwareLoad.cost(of: [mjpeg1080, mjpeg1080]) < 0.7)
        let otherBus = HardwareLoad.usb(bus: "2", megabitsPerSecond: 480, format: Self.format(.yuy2, 1280, 720), frameRate: 30)
        #expect(HardwareLoad.cost(of: [yuyv720, otherBus]) == yuyv720.share, "the busiest link decides")
        let superSpeed = HardwareLoad.usb(bus: "3", megabitsPerSecond: 5000, format: Self.format(.yuy2, 1920, 1080), frameRate: 30)
        // 2 × 995 Mbit/s against 4.5 Gbit/s.
        #expect(abs(HardwareLoad.cost(of: [superSpeed, superSpeed]) - 0.442) < 0.001)
    }

    @Test("a camera on a link of its own costs its pixel rate's share of its fastest format's")
    func ownLink() throws {
        let device = CaptureDevice.testPattern(width: 640, height: 480, isLive: true)
        let load = HardwareLoad.ownLink(device: device, format: device.activeFormat, frameRate: device.activeFormat.maxFrameRate / 2)
        #expect(abs(load.share - 0.5) < 1e-9 && load.link == .own(device: device.uniqueID))
    }
}
