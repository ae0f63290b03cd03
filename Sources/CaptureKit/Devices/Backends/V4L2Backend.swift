/// A V4L2 camera: `v4l2src` on its node, with the controls set by name as `extra-controls`.
struct V4L2Backend: DeviceBackend {
    let path: String
    /// How the camera's controls provide the seed capabilities; nil when they could not be read.
    let mapping: V4L2ControlMapping?
    let mediaType = MediaType.video
    var route: String { "v4l2" }
    var devicePath: String? { path }

    init(path: String, mapping: V4L2ControlMapping? = nil) {
        self.path = path
        self.mapping = mapping
    }

    /// What the controls give; a camera whose controls could not be read still exposes itself
    /// automatically (continuous auto exposure, the driver's default).
    var capabilities: DeviceCapabilities {
        guard let mapping else { return DeviceCapabilities(provisions: [.exposureContinuous: .device]) }
        return DeviceCapabilities(provisions: mapping.supports.mapValues(\.provision))
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
