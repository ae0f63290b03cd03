extension PipelineFile {
    /// How an input names its device.
    ///
    /// `virtual` and `virtual-front` name the built-in virtual cameras and `virtual-mic` the
    /// built-in virtual microphone; an integer (plain or quoted digits) is an index into the
    /// discovered devices (cameras, then microphones); anything else is matched against devices'
    /// unique IDs and then their localized names when the session is built. `file:PATH` plays a
    /// file as a camera: PATH is read in the pipeline file's own folder and must stay inside it.
    public enum DeviceReference: Sendable, Equatable, Hashable {
        /// A built-in virtual camera at the given position.
        case virtual(position: Position)
        /// The built-in virtual microphone, written `virtual-mic`.
        case virtualMicrophone
        /// The device at this 0-based index in discovery order.
        case index(Int)
        /// A device unique ID or localized name.
        case identifier(String)
    }
}
