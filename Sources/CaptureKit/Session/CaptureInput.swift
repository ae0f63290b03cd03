import Foundation

import Synchronization

/// A source of media for a session (AVCaptureInput). CaptureKit's inputs are `CaptureDeviceInput`s.
public protocol CaptureInput: AnyObject, Sendable {
    /// The streams the input offers, one per media type.
    var ports: [CaptureInputPort] { get }
}

/// One stream of an input (AVCaptureInput.Port).
public final class CaptureInputPort: Sendable, CustomStringConvertible {
    public let mediaType: MediaType
    /// The device the port's media comes from.
    public let device: CaptureDevice
    private let enabled = Atomic<Bool>(true)
    private let owner = Mutex(WeakInput())

    private struct WeakInput {
        weak var input: (any CaptureInput)?
    }

    init(mediaType: MediaType, device: CaptureDevice) {
        self.mediaType = mediaType
        self.device = device
    }

    /// The input the port belongs to (held weakly: the input owns its ports).
    public var input: (any CaptureInput)? { owner.withLock { $0.input } }

    func setInput(_ input: any CaptureInput) { owner.withLock { $0.input = input } }

    /// The type of the device the media comes from.
    public var sourceDeviceType: CaptureDevice.DeviceType? { device.deviceType }

    /// The position of the device the media comes from.
    public var sourceDevicePosition: CaptureDevice.Position { device.position }

    /// Whether the port's media flows to its connections.
    public var isEnabled: Bool {
        get { enabled.load(ordering: .relaxed) }
        set { enabled.store(newValue, ordering: .relaxed) }
    }

    public var description: String { "\(device.uniqueID)/\(mediaType.rawValue)" }
}

/// An input that takes media from a device (AVCaptureDeviceInput).
public final class CaptureDeviceInput: CaptureInput, CustomStringConvertible {
    public let device: CaptureDevice
    public let ports: [CaptureInputPort]

    /// An input for `device`; throws when the device is gone or cannot be opened.
    public init(device: CaptureDevice) throws(CaptureError) {
        guard device.isConnected else {
            throw .deviceNotFound(device.uniqueID, available: CaptureDevice.devices().map(\.uniqueID))
        }
        if let problem = device.backend.accessProblem() { throw problem }
        self.device = device
        self.ports = device.mediaTypes.sorted { $0.rawValue > $1.rawValue }.map { CaptureInputPort(mediaType: $0, device: device) }
        for port in ports { port.setInput(self) }
    }

    /// The ports of `mediaType` (any, when nil) whose device is of `sourceDeviceType` (any,
    /// when nil) at `sourceDevicePosition` (any, when `.unspecified`): how a multi-camera
    /// session picks the port to connect (AVCaptureDeviceInput's `ports(for:sourceDeviceType:sourceDevicePosition:)`).
    /// A device without a position (a microphone) serves every position, so one microphone
    /// port can be connected once for the back camera's outputs and once for the front's.
    public func ports(for mediaType: MediaType?, sourceDeviceType: CaptureDevice.DeviceType?,
                      sourceDevicePosition: CaptureDevice.Position) -> [CaptureInputPort] {
        ports.filter { port in
            (mediaType.map { $0 == port.mediaType } ?? true)
                && (sourceDeviceType.map { $0 == port.sourceDeviceType } ?? true)
                && (sourceDevicePosition == .unspecified || [.unspecified, sourceDevicePosition].contains(port.sourceDevicePosition))
        }
    }

    public var description: String { "CaptureDeviceInput(\(device.uniqueID))" }
}

/// Checks that a device node can be opened, with the reason when not.
enum DeviceAccess {
    static func problem(opening path: String) -> String? {
        if access(path, F_OK) != 0 { return "\(path) does not exist" }
        if access(path, R_OK | W_OK) != 0 { return "permission denied; add the user to the 'video' group" }
        return nil
    }
}
