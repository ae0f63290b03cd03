import CaptureKitV4L2
import Foundation
import Glibc
import GStreamerSwift

/// Describes one V4L2 node the way GstDeviceMonitor's v4l2 provider describes it, without
/// monitoring every device: `CaptureDevice.find("/dev/video0")` opens the camera it names.
///
/// A device monitor probes every node's formats twice (once listing, once starting its udev
/// thread), loopback and output nodes included, and loads every video device provider. For one
/// camera given by path that was most of a one-shot `capture snap`'s discovery time on vivid.
/// Here: VIDIOC_QUERYCAP for the driver, card and whether the node captures; the formats from a
/// `v4l2src` opened in READY (the caps the pipeline's source will offer); the udev properties the
/// provider reads (vendor and model ids and names) from udev's database entry for the node.
enum V4L2DeviceProbe {
    /// The node's description; nil when it is not a V4L2 video capture node, or cannot be opened.
    static func describe(path: String, udevDataDirectory: String = "/run/udev/data",
                         byIDDirectory: String = "/dev/v4l/by-id") -> V4L2DeviceDescription? {
        // The node itself, as the provider names it (a /dev/v4l/by-id link resolves to /dev/videoN).
        let node = realPath(path) ?? path
        guard let capability = V4L2Capability(path: node), capability.isCamera else { return nil }
        let caps = formatsOffered(byNodeAt: node)
        guard !caps.isEmpty else { return nil }
        return description(path: node, capability: capability, udev: udevProperties(ofNodeAt: node, in: udevDataDirectory),
                           caps: caps, byIDDirectory: byIDDirectory)
    }

    /// The description from what was read, with the provider's property names and precedence.
    static func description(path: String, capability: V4L2Capability, udev: [String: String], caps: [CapsStructure],
                            byIDDirectory: String) -> V4L2DeviceDescription? {
        func first(_ keys: String...) -> String? { keys.lazy.compactMap { udev[$0] }.first { !$0.isEmpty } }
        var properties: [String: CapsValue] = [
            "device.path": .string(path),
            "v4l2.device.driver": .string(capability.driver),
            "v4l2.device.card": .string(capability.card),
            "v4l2.device.bus_info": .string(capability.busInfo),
        ]
        let product = first("ID_V4L_PRODUCT", "ID_MODEL_FROM_DATABASE", "ID_MODEL_ENC", "ID_MODEL")
        let udevFields = [
            "device.vendor.id": first("ID_VENDOR_ID"), "device.product.id": first("ID_MODEL_ID"),
            "device.vendor.name": first("ID_VENDOR_FROM_DATABASE", "ID_VENDOR_ENC", "ID_VENDOR"), "device.product.name": product,
        ]
        for (key, value) in udevFields { if let value { properties[key] = .string(value) } }
        return V4L2DeviceDescription(displayName: product ?? capability.card, properties: properties, caps: caps,
                                     byIDDirectory: byIDDirectory)
    }

    /// What a `v4l2src` on the node offers in READY: the device's formats, sizes and rates.
    static func formatsOffered(byNodeAt path: String) -> [CapsStructure] {
        guard let source = try? Element(factory: "v4l2src", name: "capturekit-probe"),
              (try? source.set("device", .string(path))) != nil else { return [] }
        defer { source.setState(.null) }
        guard source.setState(.ready) != .failure, let pad = try? source.staticPad("src") else { return [] }
        return pad.queryCaps()
    }

    /// The node's udev properties (`E:KEY=VALUE` lines of `/run/udev/data/c<major>:<minor>`, the
    /// entry libudev reads); empty when udev has no entry for it.
    static func udevProperties(ofNodeAt path: String, in directory: String) -> [String: String] {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFCHR else { return [:] }
        let device = UInt64(info.st_rdev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        guard let text = try? String(contentsOfFile: "\(directory)/c\(major):\(minor)", encoding: .utf8) else { return [:] }
        return parseUdevEntry(text)
    }

    /// The properties of a udev database entry.
    static func parseUdevEntry(_ text: String) -> [String: String] {
        var properties: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("E:") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            properties[String(line[line.index(line.startIndex, offsetBy: 2)..<equals])] = String(line[line.index(after: equals)...])
        }
        return properties
    }
}
