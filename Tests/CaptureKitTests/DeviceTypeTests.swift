import Foundation
import Testing
@testable import CaptureKit

/// V4L2 cameras' device type from sysfs, on trees laid out as the kernel lays them out.
@Suite("Device types from sysfs", .ownDevices)
struct DeviceTypeTests {
    /// A sysfs tree with `video0` under `chain` (directories from /sys/devices down to the
    /// node's parent device), and `attributes` written into the directories they name.
    static func tree(chain: [String], attributes: [String: [String: String]]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sysfs-\(UUID().uuidString)").path
        let device = ([root, "devices"] + chain).joined(separator: "/")
        let node = device + "/video4linux/video0"
        try FileManager.default.createDirectory(atPath: node, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: node + "/device", withDestinationPath: "../..")
        try FileManager.default.createDirectory(atPath: root + "/class/video4linux", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/class/video4linux/video0", withDestinationPath: node)
        for (directory, files) in attributes {
            for (name, value) in files {
                try value.write(toFile: [root, "devices", directory, name].joined(separator: "/"), atomically: true, encoding: .utf8)
            }
        }
        return root
    }

    static let usb = ["pci0000:00", "0000:00:14.0", "usb1", "1-1", "1-1:1.0"]

    @Test("a USB camera is external unless the kernel calls its port fixed; a camera off USB is built in", arguments: [
        ("removable", CaptureDevice.DeviceType.external), ("unknown", .external), ("fixed", .builtInWideAngleCamera),
    ])
    func usbCamera(removable: String, expected: CaptureDevice.DeviceType) throws {
        let root = try Self.tree(chain: Self.usb, attributes: [
            "pci0000:00/0000:00:14.0/usb1/1-1": ["idVendor": "046d\n", "removable": removable + "\n"],
            "pci0000:00/0000:00:14.0/usb1": ["idVendor": "1d6b\n", "removable": "unknown\n"],
            "pci0000:00/0000:00:14.0": ["removable": "fixed\n"],
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(V4L2Backend.deviceType(ofNode: "/dev/video0", sysfs: root) == expected)
    }

    @Test("a platform driver (vivid, a CSI bridge) is built in, whatever its generic removable attribute says; an unknown node too")
    func platformCamera() throws {
        let root = try Self.tree(chain: ["platform", "vivid.0"], attributes: ["platform/vivid.0": ["removable": "unknown\n"]])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(V4L2Backend.deviceType(ofNode: "/dev/video0", sysfs: root) == .builtInWideAngleCamera)
        #expect(V4L2Backend.deviceType(ofNode: "/dev/video9", sysfs: root) == .builtInWideAngleCamera)
    }
}
