extension ControlReport {
    /// `focusPointOfInterest` and `exposurePointOfInterest`: a point in device coordinates,
    /// (0,0) top left to (1,1) bottom right of the unrotated picture, and whether the device
    /// honours one (``CaptureDevice/isFocusPointOfInterestSupported``,
    /// ``CaptureDevice/isExposurePointOfInterestSupported``).
    public struct Point: Sendable, Hashable, Codable {
        public var x: Double
        public var y: Double
        public var supported: Bool

        public init(x: Double, y: Double, supported: Bool) {
            self.x = x
            self.y = y
            self.supported = supported
        }
    }
}
