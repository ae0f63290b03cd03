extension ControlReport {
    /// `deviceWhiteBalanceGains`: the gain of each channel and the range every gain may take.
    public struct Gains: Sendable, Hashable, Codable {
        public var red: Double
        public var green: Double
        public var blue: Double
        public var min: Double
        public var max: Double

        public init(red: Double, green: Double, blue: Double, min: Double, max: Double) {
            self.red = red
            self.green = green
            self.blue = blue
            self.min = min
            self.max = max
        }
    }
}
