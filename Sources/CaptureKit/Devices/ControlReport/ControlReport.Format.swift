extension ControlReport {
    /// `activeFormat`: the size and pixel format frames come in, the frame rate the device runs
    /// at now, and the frame-rate ranges the format supports.
    public struct Format: Sendable, Hashable, Codable {
        /// A range of frame rates in frames per second.
        public struct FrameRateRange: Sendable, Hashable, Codable {
            public var min: Double
            public var max: Double

            public init(min: Double, max: Double) {
                self.min = min
                self.max = max
            }
        }

        public var width: Int
        public var height: Int
        /// `PixelFormat`'s name: `"nv12"`, `"yuy2"`, `"mjpeg"`, …
        public var pixelFormat: String
        /// Frames per second now (1 / `activeVideoMinFrameDuration`).
        public var frameRate: Double
        public var frameRateRanges: [FrameRateRange]

        public init(width: Int, height: Int, pixelFormat: String, frameRate: Double, frameRateRanges: [FrameRateRange]) {
            self.width = width
            self.height = height
            self.pixelFormat = pixelFormat
            self.frameRate = frameRate
            self.frameRateRanges = frameRateRanges
        }
    }
}
