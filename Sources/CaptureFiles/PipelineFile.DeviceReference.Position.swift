extension PipelineFile.DeviceReference {
    /// The position of a virtual camera.
    public enum Position: String, Sendable, Equatable, Hashable, CaseIterable {
        /// The back camera, written `virtual`.
        case back
        /// The front camera, written `virtual-front`.
        case front
    }
}
