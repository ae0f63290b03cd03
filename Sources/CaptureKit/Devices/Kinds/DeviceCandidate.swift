import Foundation

/// A device one kind found: its identity, the physical camera it is, how strongly this route
/// should win when the same camera is found several ways, and how to make the device.
struct DeviceCandidate: Sendable {
    /// The device's `uniqueID`.
    var uniqueID: String
    /// What it captures.
    var mediaType: MediaType
    /// What identifies the physical device, whichever way it is reached (its V4L2 node, its
    /// libcamera id, …). Candidates that share a key are one device, listed once.
    var sameDevice: Set<PhysicalKey>
    /// Of candidates that are one device, the highest precedence is listed (`DevicePrecedence`).
    var precedence: Int
    /// Whether the sound server calls it its default source (microphones).
    var isSystemDefault = false
    /// Makes the device (reading what the description did not: a V4L2 camera's controls).
    var make: @Sendable () -> CaptureDevice
}

/// What identifies one physical device across the routes that reach it.
enum PhysicalKey: Hashable, Sendable {
    /// A V4L2 node, by its real path ("/dev/video0").
    case v4l2Node(String)
    /// A libcamera camera, by its id.
    case libcamera(String)
}

/// Which route lists a device reachable several ways. Higher wins.
enum DevicePrecedence {
    /// Through a PipeWire daemon: the camera can then be shared with other programs.
    static let pipeWire = 30
    /// libcamera's own element: the ISP's processing and the sensor's controls, one program at a time.
    static let libcamera = 20
    /// Opening a V4L2 node directly, with every control (`v4l2src`).
    static let v4l2 = 15
    /// Devices found once, with no other route (microphones).
    static let only = 0
}
