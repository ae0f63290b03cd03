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

    init(path: String, mapping: V4L2ControlMapping? = nil) {
        self.path = path
        self.mapping = mapping
        capabilities = Self.capabilities(of: mapping)
        deviceType = Self.deviceType(ofNode: path)
    }

    /// `.external` for a camera on a USB port the kernel calls removable (or cannot say),
    /// `.builtInWideAngleCamera` for one it calls fixed (a laptop's webcam) and for cameras not
    /// on USB (CSI bridges, platform drivers such as vivid). The USB device's `removable`
    /// attribute is found by walking up from the node's sysfs device under `sysfs` (other
    /// devices' `removable`, which newer kernels give every device, says nothing about USB).
    static func deviceType(ofNode path: String, sysfs: String = "/sys") -> CaptureDevice.DeviceType {
        let node = (realPath(path) ?? path).split(separator: "/").last.map(String.init) ?? path
        guard var directory = realPath("\(sysfs)/class/video4linux/\(node)/device") else { return .builtInWideAngleCamera }
        while directory.hasPrefix(sysfs + "/devices"), directory.count > sysfs.count + "/devices".count {
            // A USB device (it has a vendor id): its `removable` says where it is plugged.
            if FileManager.default.fileExists(atPath: directory + "/idVendor"),
               let removable = try? String(contentsOfFile: directory + "/removable", encoding: .utf8) {
                return removable.trimmingCharacters(in: .whitespacesAndNewlines) == "fixed" ? .builtInWideAngleCamera : .external
            }
            directory = String(directory[..<(directory.lastIndex(of: "/") ?? directory.endIndex)])
        }
        return .builtInWideAngleCamera
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
        try source.set("extra-controls", "c," + controls.map { "\($0.name)=\($0.value)" }.joined(separator: ","))
    }

    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        var properties: [PipelinePlan.Property] = [.init("device", path)]
        if let controls = device.extraControls { properties.append(.init("extra-controls", controls, live: true)) }
        return [.init("v4l2src", name: "\(prefix)_src", properties)] + PipelineCompiler.formatElements(prefix: prefix, device: device, format: format)
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
