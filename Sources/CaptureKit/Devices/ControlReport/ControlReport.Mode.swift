extension ControlReport {
    /// A mode property: its current case and the cases the device supports, named as
    /// AVFoundation names them (`"locked"`, `"autoFocus"`, `"continuousAutoFocus"`, …).
    public struct Mode: Sendable, Hashable, Codable {
        public var value: String
        public var supported: [String]

        public init(value: String, supported: [String]) {
            self.value = value
            self.supported = supported
        }

        /// The mode of `current` among `all`, those for which `isSupported` holds listed.
        init<Value: CaseIterable>(_ current: Value, isSupported: (Value) -> Bool) {
            self.init(value: String(describing: current), supported: Value.allCases.filter(isSupported).map { String(describing: $0) })
        }
    }
}
