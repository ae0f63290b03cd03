/// The source part of a microphone's pipeline, as plan elements: what makes its samples, up to
/// and including the caps filter that pins the device's format. The caller adds the tee.
enum AudioSource {
    /// The source elements for `device` delivering `format`, named `prefix_…`, as its backend
    /// makes them: the source element as `prefix_src`, ending in a `capsfilter` `prefix_caps`
    /// that pins the format.
    ///
    /// Devices without audio (cameras) have no audio source: the chain is empty. A format that is
    /// not an audio format is replaced by the device's active format.
    static func sourceChain(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        guard device.backend.mediaType == .audio else { return [] }
        return device.backend.sourceElements(prefix: prefix, device: device, format: format)
    }
}
