import CaptureKitV4L2

extension ControlReport {
    /// One raw V4L2 control as the driver describes it, named as `v4l2-ctl` and `--set` name it.
    public struct V4L2Control: Sendable, Hashable, Codable {
        /// An item of a menu control.
        public struct MenuItem: Sendable, Hashable, Codable {
            public var index: Int64
            /// The item's name (menus) or its value printed (integer menus).
            public var name: String

            public init(index: Int64, name: String) {
                self.index = index
                self.name = name
            }
        }

        /// e.g. `"brightness"`, `"exposure_time_absolute"`.
        public var name: String
        /// `v4l2-ctl`'s type word: `"int"`, `"bool"`, `"menu"`, `"intmenu"`, `"button"`,
        /// `"int64"`, `"str"`, `"bitmask"`.
        public var type: String
        /// The current value; nil where the control has no single readable integer.
        public var value: Int64?
        public var min: Int64
        public var max: Int64
        public var step: Int64
        public var `default`: Int64
        /// `v4l2-ctl`'s flag words: `"inactive"`, `"read-only"`, …
        public var flags: [String]
        /// The items of a menu; empty for other types.
        public var menu: [MenuItem]

        init(_ control: V4L2ControlInfo) {
            name = control.name
            type = control.type.description
            value = control.value
            min = control.minimum
            max = control.maximum
            step = control.step
            `default` = control.defaultValue
            flags = V4L2ControlInfo.Flags.names.filter { control.flags.contains($0.flag) }.map(\.name)
            menu = control.menu.map { MenuItem(index: $0.index, name: $0.value.map(String.init) ?? $0.name) }
        }
    }
}
