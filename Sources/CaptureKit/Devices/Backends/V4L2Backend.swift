/// A V4L2 camera: `v4l2src` on its node, with the controls set by name as `extra-controls`.
struct V4L2Backend: DeviceBackend {
    let path: String
    let mediaType = MediaType.video
    var route: String { "v4l2" }
    var devicePath: String? { path }

    func zoomsInPipeline(_ device: CaptureDevice) -> Bool {
        device.v4l2Mapping?[.zoom] == .software(.digitalZoom)
    }

    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        var properties: [PipelinePlan.Property] = [.init("device", path)]
        if let controls = device.extraControls { properties.append(.init("extra-controls", controls, live: true)) }
        return [.init("v4l2src", name: "\(prefix)_src", properties)] + PipelineCompiler.formatElements(prefix: prefix, device: device, format: format)
    }
}
