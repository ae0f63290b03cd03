import Foundation
import GStreamerSwift

/// A V4L2 camera: `v4l2src` on its node, with the controls set by name as `extra-controls`.
struct V4L2Backend: DeviceBackend {
    let path: String
    /// How the camera's controls provide the seed capabilities; nil when they could not be read.
    let mapping: V4L2ControlMapping?
    let mediaType = MediaType.video
    var route: String { "v4l2" }

    /// What the controls give, within their ranges: worked out once, read on every control call.
    let capabilities: DeviceCapabilities

    /// Built in, or on a removable USB port: read once, from sysfs.
    let deviceType: CaptureDevice.DeviceType

    /// The USB bus it shares with other cameras, and the bus's speed; nil off USB. Read once, from sysfs.
    let usbBus: (bus: String, megabitsPerSecond: Double)?

    init(path: String, mapping: V4L2ControlMapping? = nil) {
        self.path = path
        self.mapping = mapping
        capabilities = Self.capabilities(of: mapping)
        deviceType = Self.deviceType(ofNode: path)
        usbBus = Self.usbBus(ofNode: path)
    }

    /// A USB camera's frames share its bus's periodic bandwidth; a camera off USB has its own link.
    func hardwareLoad(device: CaptureDevice, format: CaptureDevice.Format, frameRate: Double) -> HardwareLoad {
        guard let usbBus else { return .ownLink(device: device, format: format, frameRate: frameRate) }
        return .usb(bus: usbBus.bus, megabitsPerSecond: usbBus.megabitsPerSecond, format: format, frameRate: frameRate)
    }

    /// `.external` for a camera on a USB port the kernel calls removable (or cannot say),
    /// `.builtInWideAngleCamera` for one it calls fixed (a laptop's webcam) and for cameras not
    /// on USB (CSI bridges, platform drivers such as vivid). The USB device's `removable`
    /// attribute is read from the node's USB device under `sysfs` (other devices' `removable`,
    /// which newer kernels give every device, says nothing about USB).
    static func deviceType(ofNode path: String, sysfs: String = "/sys") -> CaptureDevice.DeviceType {
        guard let usb = usbDevice(ofNode: path, sysfs: sysfs) else { return .builtInWideAngleCamera }
        return attribute("removable", of: usb) == "fixed" ? .builtInWideAngleCamera : .external
    }

    /// The USB bus the camera is on and its speed in Mbit/s (sysfs `busnum` and `speed`), or nil
    /// for a camera off USB.
    static func usbBus(ofNode path: String, sysfs: String = "/sys") -> (bus: String, megabitsPerSecond: Double)? {
        guard let usb = usbDevice(ofNode: path, sysfs: sysfs), let bus = attribute("busnum", of: usb),
              let speed = attribute("speed", of: usb).flatMap(Double.init) else { return nil }
        return (bus, speed)
    }

    /// The sysfs directory of the USB device (the one with a vendor id) the node belongs to,
    /// found by walking up from the node's device; nil for a node off USB.
    private static func usbDevice(ofNode path: String, sysfs: String) -> String? {
        let node = (realPath(path) ?? path).split(separator: "/").last.map(String.init) ?? path
        guard var directory = realPath("\(sysfs)/class/video4linux/\(node)/device") else { return nil }
        while directory.hasPrefix(sysfs + "/devices"), directory.count > sysfs.count + "/devices".count {
            if FileManager.default.fileExists(atPath: directory + "/idVendor") { return directory }
            directory = String(directory[..<(directory.lastIndex(of: "/") ?? directory.endIndex)])
        }
        return nil
    }

    private static func attribute(_ name: String, of directory: String) -> String? {
        (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A camera whose controls could not be read still exposes itself automatically (continuous
    /// auto exposure, the driver's default).
    static func capabilities(of mapping: V4L2ControlMapping?) -> DeviceCapabilities {
        guard let mapping else { return DeviceCapabilities(provisions: [.exposureContinuous: .device]) }
        var capabilities = DeviceCapabilities(provisions: mapping.supports.mapValues(\.provision))
        let durations = mapping.exposureDurationRange.map { $0.lowerBound.seconds...$0.upperBound.seconds } ?? 0...0
        let isos = mapping.isoRange.map { Double($0.lowerBound)...Double($0.upperBound) } ?? 0...0
        capabilities.exposureLimits = .init(duration: durations, iso: isos)
        capabilities.exposureTargetBiasRange = mapping.exposureTargetBiasRange
        capabilities.maxZoomFactor = capabilities.bySoftware(.zoom, .digitalZoom) ? DigitalZoom.maxFactor : mapping.zoomFactorRange?.upperBound ?? 1
        return capabilities
    }

    var controller: (any DeviceController)? { mapping.map { V4L2Controller(mapping: $0, path: path) } }

    /// The exposure time and ISO the controls held when the camera was found.
    var initialExposure: ExposureState? { mapping.map { ExposureState(reading: $0) } }

    /// Another process has the node open: a file descriptor of it under /proc (processes of
    /// other users, whose descriptors this one cannot read, are not seen).
    var isInUseByAnotherProcess: Bool { OpenFiles.otherProcessesHaveOpen(realPath(path) ?? path) }

    func accessProblem() -> CaptureError? {
        DeviceAccess.problem(opening: path).map { .accessDenied(device: path, reason: $0) }
    }

    var hasRawControls: Bool { true }

    /// The seed capabilities as the controls map them, then every raw control, read by ioctl now.
    func rawControls() throws(CaptureError) -> RawControls? {
        let table: V4L2ControlTable
        do {
            table = try V4L2ControlTable.query(deviceAt: path)
        } catch {
            throw .accessDenied(device: path, reason: error.description)
        }
        let mapping = V4L2ControlMapping(table)
        let capabilities = V4L2ControlMapping.Capability.allCases.map { capability -> CaptureDevice.ControlDescription in
            let support = mapping[capability]
            let provider = switch support {
            case .device: "device"
            case .software: "software"
            case .unsupported: "unsupported"
            }
            return CaptureDevice.ControlDescription(name: capability.rawValue, mode: nil, value: support.description, range: nil, provider: provider)
        }
        let raw = table.controls.filter { $0.type != .ctrlClass }.map { control in
            CaptureDevice.ControlDescription(name: control.name, mode: nil, value: control.value.map(String.init) ?? "-",
                                             range: control.type == .bool ? "0…1" : "\(control.minimum)…\(control.maximum)", provider: "v4l2")
        }
        return RawControls(descriptions: capabilities + raw, report: table.controls.map(ControlReport.V4L2Control.init))
    }

    /// All the controls in one `extra-controls` structure, which v4l2src writes at once.
    func write(_ controls: [(name: String, value: String)], to source: Element) throws(GStreamerError) {
        try source.set("extra-controls", .serialized("c," + controls.map { "\($0.name)=\($0.value)" }.joined(separator: ",")))
    }

    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        var properties: [PipelinePlan.Property] = [.init("device", .string(path))]
        if let controls = device.extraControls { properties.append(.init("extra-controls", .serialized(controls), live: true)) }
        return [.init("v4l2src", .src, in: prefix, properties)] + PipelineCompiler.formatElements(prefix: prefix, device: device, format: format)
    }
}

extension V4L2ControlMapping.Support {
    /// The support as the neutral capability table states it.
    var provision: DeviceCapabilities.Provision {
        switch self {
        case .device: .device
        case .software(let feature): .software(feature)
        case .unsupported: .unsupported
        }
    }
}
