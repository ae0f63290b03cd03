/// One V4L2 control of a device: what `VIDIOC_QUERY_EXT_CTRL`, `VIDIOC_QUERYMENU` and
/// `VIDIOC_G_EXT_CTRLS` report, or what `v4l2-ctl -l` / `-L` / `--all` prints for it.
///
/// Both sources produce the same value for the same control, so code that maps controls onto
/// capabilities works on a live device and on a recorded control table alike.
public struct V4L2ControlInfo: Sendable, Equatable {
    /// The control's type (`enum v4l2_ctrl_type`).
    public enum ControlType: Sendable, Equatable, CustomStringConvertible {
        case int, bool, menu, intMenu, button, integer64, string, ctrlClass, bitmask
        /// Any other type, by its kernel number: the compound types (u8/u16/u32 arrays, area,
        /// HDR10 and codec parameters) have numbers from 0x100 up.
        case other(UInt32)

        /// The type for a kernel type number.
        public init(rawValue: UInt32) {
            switch rawValue {
            case 1: self = .int
            case 2: self = .bool
            case 3: self = .menu
            case 4: self = .button
            case 5: self = .integer64
            case 6: self = .ctrlClass
            case 7: self = .string
            case 8: self = .bitmask
            case 9: self = .intMenu
            default: self = .other(rawValue)
            }
        }

        /// The kernel's type number.
        public var rawValue: UInt32 {
            switch self {
            case .int: 1
            case .bool: 2
            case .menu: 3
            case .button: 4
            case .integer64: 5
            case .ctrlClass: 6
            case .string: 7
            case .bitmask: 8
            case .intMenu: 9
            case .other(let raw): raw
            }
        }

        /// Whether the control is a menu of either kind.
        public var isMenu: Bool { self == .menu || self == .intMenu }

        /// The word `v4l2-ctl` prints for the type ("int", "menu", "u32", …).
        public var description: String {
            switch self {
            case .int: "int"
            case .bool: "bool"
            case .menu: "menu"
            case .intMenu: "intmenu"
            case .button: "button"
            case .integer64: "int64"
            case .string: "str"
            case .ctrlClass: "class"
            case .bitmask: "bitmask"
            case .other(let raw): "type 0x\(String(raw, radix: 16))"
            }
        }
    }

    /// The control's flags (`V4L2_CTRL_FLAG_*`), with the kernel's bit values.
    public struct Flags: OptionSet, Sendable, Hashable {
        /// The `V4L2_CTRL_FLAG_*` bits.
        public let rawValue: UInt32
        /// Flags from their kernel bits; bits this type has no name for are kept.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// The driver does not implement it (v4l2-ctl does not list it).
        public static let disabled = Flags(rawValue: 0x0001)
        /// Temporarily unchangeable, e.g. while streaming.
        public static let grabbed = Flags(rawValue: 0x0002)
        /// Can be read but not set.
        public static let readOnly = Flags(rawValue: 0x0004)
        /// Changing it may change other controls.
        public static let update = Flags(rawValue: 0x0008)
        /// Has no effect in the current state, e.g. manual exposure time while auto exposure is on.
        public static let inactive = Flags(rawValue: 0x0010)
        /// Best shown as a slider.
        public static let slider = Flags(rawValue: 0x0020)
        /// Can be set but not read (buttons, relative moves).
        public static let writeOnly = Flags(rawValue: 0x0040)
        /// The driver changes the value by itself (e.g. gain under automatic gain).
        public static let volatile = Flags(rawValue: 0x0080)
        /// The value lives in memory the caller provides (strings, arrays, compound types).
        public static let hasPayload = Flags(rawValue: 0x0100)
        /// Setting it acts even when the value does not change (buttons).
        public static let executeOnWrite = Flags(rawValue: 0x0200)
        /// Changing it changes the buffer layout (e.g. rotation), so not while streaming.
        public static let modifyLayout = Flags(rawValue: 0x0400)
        /// An array whose length varies up to its dimensions.
        public static let dynamicArray = Flags(rawValue: 0x0800)

        /// The names `v4l2-ctl` prints after `flags=`, in bit order.
        public static let names: [(flag: Flags, name: String)] = [
            (.disabled, "disabled"), (.grabbed, "grabbed"), (.readOnly, "read-only"), (.update, "update"),
            (.inactive, "inactive"), (.slider, "slider"), (.writeOnly, "write-only"), (.volatile, "volatile"),
            (.hasPayload, "has-payload"), (.executeOnWrite, "execute-on-write"), (.modifyLayout, "modify-layout"),
            (.dynamicArray, "dynamic-array"),
        ]
    }

    /// One entry of a menu or integer-menu control. Menus may skip indices.
    public struct MenuItem: Sendable, Equatable {
        /// The value that selects this item.
        public var index: Int64
        /// The item's name ("Aperture Priority Mode"); for an integer menu, its value in decimal.
        public var name: String
        /// For an integer menu, the item's value (e.g. an ISO or 0.001 EV step); else nil.
        public var value: Int64?

        /// An item; `value` only for integer menus.
        public init(index: Int64, name: String, value: Int64? = nil) {
            self.index = index
            self.name = name
            self.value = value
        }
    }

    /// The control id (`V4L2_CID_*`); 0 when the source did not give one (old `v4l2-ctl` output).
    public var id: UInt32
    /// The name as `v4l2-ctl` and v4l2src's `extra-controls` spell it: the kernel's name in lower
    /// case with each run of other characters turned into one `_`, e.g. "Exposure Time, Absolute"
    /// is "exposure_time_absolute" (see `variableName(_:)`).
    public var name: String
    /// The control's type.
    public var type: ControlType
    /// The smallest value (a menu's first index; 0 for booleans and buttons).
    public var minimum: Int64
    /// The largest value (a menu's last index; a bitmask's valid bits).
    public var maximum: Int64
    /// The distance between valid values (1 for menus and booleans, 0 for buttons and bitmasks).
    public var step: Int64
    /// The value the driver starts with.
    public var defaultValue: Int64
    /// The current value; nil for controls without a single readable integer value: buttons,
    /// control classes, strings, compound and write-only controls, and failed reads. Bitmask
    /// values are the 32-bit pattern read as unsigned.
    public var value: Int64?
    /// The control's flags.
    public var flags: Flags
    /// The array dimensions of an array control; empty for a single value.
    public var dimensions: [Int]
    /// The items of a menu or integer menu (empty when the source listed none, as `v4l2-ctl -l` does).
    public var menu: [MenuItem]

    /// A control from its parts; fields a type lacks default to 0, nil or empty.
    public init(id: UInt32, name: String, type: ControlType, minimum: Int64 = 0, maximum: Int64 = 0, step: Int64 = 0,
                defaultValue: Int64 = 0, value: Int64? = nil, flags: Flags = [], dimensions: [Int] = [], menu: [MenuItem] = []) {
        self.id = id
        self.name = name
        self.type = type
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.value = value
        self.flags = flags
        self.dimensions = dimensions
        self.menu = menu
    }

    /// `v4l2-ctl`'s name for a kernel control name (its `name2var`): letters and digits in lower
    /// case, every run of other characters after the first letter or digit becomes one `_`, and
    /// trailing ones are dropped. "White Balance Temperature, Auto" → "white_balance_temperature_auto".
    /// Applied to a name already in that form, it returns it unchanged, and it folds the spellings
    /// of old `v4l2-ctl` versions ("exposure,_auto", "exposure_(absolute)") onto today's.
    public static func variableName(_ kernelName: some StringProtocol) -> String {
        var bytes: [UInt8] = []
        var pendingUnderscore = false
        for byte in kernelName.utf8 {
            let isDigit = (0x30...0x39).contains(byte)
            let isUpper = (0x41...0x5A).contains(byte)
            let isLower = (0x61...0x7A).contains(byte)
            if isDigit || isUpper || isLower {
                if pendingUnderscore { bytes.append(0x5F) }
                pendingUnderscore = false
                bytes.append(isUpper ? byte + 0x20 : byte)
            } else if !bytes.isEmpty {
                pendingUnderscore = true
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The menu item with that index, if the menu lists it.
    public func menuItem(at index: Int64) -> MenuItem? {
        menu.first { $0.index == index }
    }
}
