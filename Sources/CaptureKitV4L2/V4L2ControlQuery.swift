import CGStreamer
import Glibc

/// Lists a V4L2 device's controls by ioctl: names, types, ranges, flags, menus and current values.
///
/// Capture-agnostic: it knows nothing of cameras' capabilities, only what the driver reports.
/// The ioctls are synchronous and, on USB cameras, each may take a control transfer (a few
/// milliseconds), so call it off latency-sensitive threads.
public enum V4L2ControlQuery {
    /// Why a query failed: the device path, the step that failed and the errno, with its text.
    public struct Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// The step that failed.
        public enum Operation: Sendable, Equatable, CustomStringConvertible {
            /// Opening the device node.
            case open
            /// Enumerating the control after `previousID` (0: the first).
            case queryControl(previousID: UInt32)
            /// Reading the menu of control `id`.
            case queryMenu(id: UInt32, index: UInt32)

            /// The ioctl (or "open") and its arguments.
            public var description: String {
                switch self {
                case .open: "open"
                case .queryControl(let previous): previous == 0 ? "VIDIOC_QUERY_EXT_CTRL (first control)"
                    : "VIDIOC_QUERY_EXT_CTRL (after 0x\(hex(previous)))"
                case .queryMenu(let id, let index): "VIDIOC_QUERYMENU (control 0x\(hex(id)), item \(index))"
                }
            }
        }

        /// The device node.
        public var path: String
        /// The step that failed.
        public var operation: Operation
        /// The errno value.
        public var errno: Int32
        /// The errno's text (strerror), e.g. "Permission denied".
        public var reason: String

        /// An error for `errno`, with its text from `strerror`.
        public init(path: String, operation: Operation, errno: Int32) {
            self.path = path
            self.operation = operation
            self.errno = errno
            self.reason = String(cString: strerror(errno))
        }

        /// Whether the node is not a V4L2 device (ENOTTY from the control ioctl).
        public var isNotV4L2Device: Bool { errno == ENOTTY && operation != .open }

        /// What failed, where, and why, with what to do about a permission error.
        public var description: String {
            if isNotV4L2Device { return "'\(path)' is not a V4L2 device (\(operation): \(reason))" }
            if operation == .open, errno == EACCES {
                return "cannot open '\(path)': \(reason); add the user to the 'video' group"
            }
            return "'\(path)': \(operation) failed: \(reason) (errno \(errno))"
        }
    }

    /// The controls of the device at `path`, in the driver's order, including control classes
    /// (type `.ctrlClass`) and disabled controls (flag `.disabled`), which `v4l2-ctl` leaves out.
    /// Menus list every valid item between the control's minimum and maximum.
    public static func controls(ofDeviceAt path: String) throws(Error) -> [V4L2ControlInfo] {
        let fd = ck_v4l2_open(path)
        guard fd >= 0 else { throw Error(path: path, operation: .open, errno: -fd) }
        defer { ck_v4l2_close(fd) }

        var controls: [V4L2ControlInfo] = []
        var previous: UInt32 = 0
        var raw = ck_v4l2_control()
        while true {
            let result = ck_v4l2_next_control(fd, previous, &raw)
            if result == 0 { break }
            guard result > 0 else { throw Error(path: path, operation: .queryControl(previousID: previous), errno: -result) }
            var info = info(from: raw)
            if info.type.isMenu, !info.flags.contains(.disabled) {
                info.menu = try menu(of: info, fd: fd, path: path)
            }
            controls.append(info)
            // A driver that returns the same id again would loop forever.
            guard raw.id > previous else { break }
            previous = raw.id
        }
        return controls
    }

    /// The current values of `controls` on the device at `path`, by id: one read each (two or
    /// three ioctls where the whole table takes hundreds). Controls whose read fails are left out.
    public static func currentValues(of controls: [V4L2ControlInfo], ofDeviceAt path: String) -> [UInt32: Int64] {
        let fd = ck_v4l2_open(path)
        guard fd >= 0 else { return [:] }
        defer { ck_v4l2_close(fd) }
        var values: [UInt32: Int64] = [:]
        for control in controls {
            var raw = ck_v4l2_control()
            raw.id = control.id
            raw.type = control.type.rawValue
            if ck_v4l2_read_control(fd, &raw) == 0 { values[control.id] = raw.value }
        }
        return values
    }

    private static func info(from raw: ck_v4l2_control) -> V4L2ControlInfo {
        let name = withUnsafeBytes(of: raw.name) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let dims = withUnsafeBytes(of: raw.dims) { Array($0.bindMemory(to: UInt32.self)) }
        return V4L2ControlInfo(
            id: raw.id, name: V4L2ControlInfo.variableName(name), type: .init(rawValue: raw.type),
            minimum: raw.minimum, maximum: raw.maximum, step: raw.step, defaultValue: raw.default_value,
            value: raw.has_value != 0 ? raw.value : nil, flags: .init(rawValue: raw.flags),
            dimensions: dims.prefix(Int(raw.nr_of_dims)).map { Int($0) })
    }

    private static func menu(of control: V4L2ControlInfo, fd: Int32, path: String) throws(Error) -> [V4L2ControlInfo.MenuItem] {
        // Menu indices are 32-bit; a driver's range outside that has no items to list.
        guard control.minimum >= 0, control.maximum <= Int64(UInt32.max), control.minimum <= control.maximum else { return [] }
        var items: [V4L2ControlInfo.MenuItem] = []
        var name = (CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0),
                    CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0),
                    CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0),
                    CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0))
        var value: Int64 = 0
        for index in UInt32(control.minimum)...UInt32(control.maximum) {
            let result = withUnsafeMutableBytes(of: &name) { buffer in
                ck_v4l2_menu_item(fd, control.id, index, buffer.baseAddress!.assumingMemoryBound(to: CChar.self), &value)
            }
            if result == -EINVAL { continue } // an index the menu skips
            guard result == 0 else { throw Error(path: path, operation: .queryMenu(id: control.id, index: index), errno: -result) }
            if control.type == .intMenu {
                items.append(.init(index: Int64(index), name: String(value), value: value))
            } else {
                let text = withUnsafeBytes(of: name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                items.append(.init(index: Int64(index), name: text))
            }
        }
        return items
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
