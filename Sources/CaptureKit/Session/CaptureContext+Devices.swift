import Foundation

/// Finding the context's devices; `CaptureDevice`'s static forms ask ``CaptureContext/shared``.
extension CaptureContext {
    /// Every device of this context, in `CaptureDevice.devices()`'s order: hardware cameras,
    /// then the virtual cameras (where no hardware camera is connected, or when
    /// ``listsVirtualDevices``) and the screen of `$DISPLAY`, then microphones and the virtual
    /// microphone.
    public func devices() -> [CaptureDevice] {
        registry.devices()
    }

    /// The devices of this context that produce `mediaType`.
    public func devices(for mediaType: MediaType) -> [CaptureDevice] {
        devices().filter { $0.hasMediaType(mediaType) }
    }

    /// This context's default device for `mediaType`, chosen as `CaptureDevice.default(for:)`
    /// chooses: the first hardware one, else the virtual one; never a screen.
    public func `default`(for mediaType: MediaType) -> CaptureDevice? {
        registry.defaultDevice(for: mediaType)
    }

    /// This context's connected device with that uniqueID (its own virtual devices always are).
    public func device(uniqueID: String) -> CaptureDevice? {
        registry.device(uniqueID: uniqueID)
    }

    /// This context's device by any reference `CaptureDevice.find(_:)` takes: "virtual",
    /// "virtual-front", "virtual:microphone", a uniqueID, a localized name, an index in
    /// ``devices()``, "default", "screen", a V4L2 node's path or `file:PATH`.
    /// - Throws: ``CaptureError/Code/deviceNotFound`` naming the reference and listing the
    ///   devices there are; a file's or node's own error when it is one but cannot be opened.
    public func find(_ reference: String) throws(CaptureError) -> CaptureDevice {
        if reference == "default", let device = `default`(for: .video) { return device }
        if let device = try registry.resolve(reference) { return device }
        let all = devices()
        if let index = Int(reference), all.indices.contains(index) { return all[index] }
        if let match = all.first(where: { $0.uniqueID == reference || $0.localizedName == reference }) { return match }
        throw .deviceNotFound(reference, available: all.enumerated().map { "\($0.offset): \($0.element.uniqueID)" })
    }

    /// Whether ``devices()`` lists the virtual cameras beside hardware ones; false unless the
    /// environment sets `CAPTUREKIT_VIRTUAL_DEVICES=1`.
    public var listsVirtualDevices: Bool {
        get { registry.listsVirtual.load(ordering: .relaxed) }
        set { registry.listsVirtual.store(newValue, ordering: .relaxed) }
    }
}
