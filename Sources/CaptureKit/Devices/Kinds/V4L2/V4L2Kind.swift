import CaptureKitV4L2
import Foundation
import GStreamerSwift

/// V4L2 cameras, as GStreamer's v4l2 device provider reports them: capture nodes that are not
/// metadata, touch, memory-to-memory or media-controller-routed ones (those raw nodes of CSI
/// sensors and ISPs give nothing until libcamera configures their pipeline). Keyed by the node.
struct V4L2Kind: DeviceKind {
    let monitoredClass: String? = "Video/Source"
    /// Where the stable names of V4L2 nodes are linked.
    var byIDDirectory = "/dev/v4l/by-id"

    func describe(_ found: MonitoredDevice) -> DeviceCandidate? {
        guard found.typeName == "GstV4l2Device" else { return nil }
        if case .int(let caps)? = found.properties["v4l2.device.device_caps"], UInt32(truncatingIfNeeded: caps) & V4L2Capability.mediaControllerIO != 0 {
            return nil
        }
        return V4L2DeviceDescription(found, byIDDirectory: byIDDirectory)?.candidate
    }

    /// A path (`/dev/video0`, a by-id link) opens that node: the camera already known at it, or,
    /// before any listing, the node described alone (`V4L2DeviceProbe`) instead of starting a
    /// monitor that probes every device; the device joins the registry, so later listings and
    /// hot-plug events give the same object. Nil for other references and for a node that is
    /// not a camera (the caller then lists devices).
    func device(named reference: String, in registry: DeviceRegistry) -> CaptureDevice? {
        guard reference.hasPrefix("/") else { return nil }
        let node = realPath(reference) ?? reference
        if let known = registry.knownDevice(sharing: .v4l2Node(node), precedence: DevicePrecedence.v4l2) { return known }
        guard !registry.isMonitoring, let candidate = V4L2DeviceProbe.describe(path: node)?.candidate else { return nil }
        return registry.keep(candidate, namedOnly: false)
    }
}

extension V4L2DeviceDescription {
    /// The camera as the registry keeps it; none without formats (a node that cannot stream).
    var candidate: DeviceCandidate? {
        guard !formats.isEmpty else { return nil }
        return DeviceCandidate(uniqueID: uniqueID, mediaType: .video, sameDevice: [.v4l2Node(realPath(path) ?? path)],
                               precedence: DevicePrecedence.v4l2, make: makeDevice)
    }
}
