extension PipelineFile {
    /// A capture input: one device (a camera or a microphone), optionally with a requested format.
    public struct Input: Sendable, Equatable {
        /// The input's name, unique among inputs; `input0`, `input1`… when the file gives none.
        public var name: String
        /// Which device to open.
        public var device: DeviceReference
        /// The requested active video format, if the file asks for one (`WIDTHxHEIGHT[@FPS]`).
        public var format: FormatSpec?
        /// The requested active audio format, if the file asks for one (`48000Hz stereo s16le`);
        /// never set together with ``format``.
        public var audioFormat: AudioFormatSpec?
        /// Where the input's list item starts.
        public var location: SourceLocation
        /// Where the `device` value is written.
        public var deviceLocation: SourceLocation
        /// Where the `format` value is written, if the file gives one (video or audio).
        public var formatLocation: SourceLocation?
        /// Device controls to set before the run, if the file gives any.
        public var controls: ControlsSpec?

        /// Creates an input.
        /// - Parameters:
        ///   - name: The unique input name.
        ///   - device: Which device to open.
        ///   - format: The requested format, if any.
        ///   - location: Where the input's list item starts.
        ///   - deviceLocation: Where the `device` value is written.
        ///   - formatLocation: Where the `format` value is written, if anywhere.
        public init(
            name: String,
            device: DeviceReference,
            format: FormatSpec?,
            location: SourceLocation,
            deviceLocation: SourceLocation,
            formatLocation: SourceLocation?
        ) {
            self.name = name
            self.device = device
            self.format = format
            self.location = location
            self.deviceLocation = deviceLocation
            self.formatLocation = formatLocation
        }
    }
}
