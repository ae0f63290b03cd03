extension PipelineFile {
    /// A frame size, written `WIDTHxHEIGHT`.
    public struct FrameSize: Sendable, Equatable, Hashable {
        /// The width in pixels, at least 1.
        public var width: Int
        /// The height in pixels, at least 1.
        public var height: Int

        /// Creates a frame size.
        /// - Parameters:
        ///   - width: The width in pixels.
        ///   - height: The height in pixels.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }
}
