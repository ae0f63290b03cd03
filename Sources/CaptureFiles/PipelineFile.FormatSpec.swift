extension PipelineFile {
    /// A requested device format, written `WIDTHxHEIGHT` or `WIDTHxHEIGHT@FPS`.
    public struct FormatSpec: Sendable, Equatable, Hashable {
        /// The width in pixels, at least 1.
        public var width: Int
        /// The height in pixels, at least 1.
        public var height: Int
        /// The frame rate in frames per second, if given; greater than 0 and possibly fractional.
        public var frameRate: Double?

        /// Creates a format request.
        /// - Parameters:
        ///   - width: The width in pixels.
        ///   - height: The height in pixels.
        ///   - frameRate: The frame rate, if any.
        public init(width: Int, height: Int, frameRate: Double? = nil) {
            self.width = width
            self.height = height
            self.frameRate = frameRate
        }
    }
}
