extension ControlReport {
    /// A numeric property: its value, its range where it has one, and its unit where it has one
    /// (`"s"`, `"EV"`, `"K"`).
    public struct Number: Sendable, Hashable, Codable {
        public var value: Double
        public var min: Double?
        public var max: Double?
        public var unit: String?

        public init(value: Double, min: Double? = nil, max: Double? = nil, unit: String? = nil) {
            self.value = value
            self.min = min
            self.max = max
            self.unit = unit
        }

        /// A number from device readings, any of which may be unknown (a non-finite reading
        /// becomes 0 for the value and no bound for a range, so the report always encodes).
        init(_ value: some BinaryFloatingPoint, min: (some BinaryFloatingPoint)? = Double?.none,
             max: (some BinaryFloatingPoint)? = Double?.none, unit: String? = nil) {
            func finite(_ number: (some BinaryFloatingPoint)?) -> Double? {
                guard let number, number.isFinite else { return nil }
                return ControlReport.decimal(number)
            }
            self.init(value: finite(value) ?? 0, min: finite(min), max: finite(max), unit: unit)
        }
    }

    /// A reading as a Double that prints as the reading does: a Float's 0.6 stays 0.6 rather
    /// than becoming 0.6000000238418579.
    static func decimal(_ number: some BinaryFloatingPoint) -> Double {
        if let float = number as? Float { return Double(float.description) ?? Double(float) }
        return Double(number)
    }
}
