import CaptureKitV4L2

/// A camera's V4L2 controls, from the device by ioctl or from recorded `v4l2-ctl` output.
///
/// Both ways give the same `V4L2ControlInfo` values, so `V4L2ControlMapping` works the same on a
/// live device and on the recorded tables the tests use.
struct V4L2ControlTable: Equatable, Sendable {
    /// The controls in the source's order. Control classes and disabled controls are left out,
    /// as `v4l2-ctl` leaves them out.
    var controls: [V4L2ControlInfo]

    /// A table of the usable controls among `controls` (classes and disabled ones are dropped).
    init(_ controls: [V4L2ControlInfo]) {
        self.controls = controls.filter { $0.type != .ctrlClass && !$0.flags.contains(.disabled) }
    }

    /// The controls of the device at `path`, by ioctl.
    static func query(deviceAt path: String) throws(V4L2ControlQuery.Error) -> V4L2ControlTable {
        V4L2ControlTable(try V4L2ControlQuery.controls(ofDeviceAt: path))
    }

    /// The control whose name is `name` in any spelling `V4L2ControlInfo.variableName` folds
    /// together ("exposure_auto", "Exposure, Auto" and "exposure,_auto" are one name).
    subscript(name: String) -> V4L2ControlInfo? {
        let key = V4L2ControlInfo.variableName(name)
        return controls.first { V4L2ControlInfo.variableName($0.name) == key }
    }

    /// The control with that id, if the source gave ids.
    subscript(id id: UInt32) -> V4L2ControlInfo? {
        id == 0 ? nil : controls.first { $0.id == id }
    }
}

// MARK: - Parsing v4l2-ctl output

extension V4L2ControlTable {
    /// A line of `v4l2-ctl` output that could not be understood.
    struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// What is wrong with the line.
        enum Reason: Error, Equatable, Sendable, CustomStringConvertible {
            /// A field's value is not a number (`field` is "min", "max", "id", …).
            case badNumber(field: String, value: String)
            /// A field the control's type always prints is missing.
            case missingField(String)
            /// A `key=value` field v4l2-ctl does not print.
            case unknownField(String)
            /// A type word v4l2-ctl does not print.
            case unknownType(String)
            /// Array dimensions that are not `[n][m]…`.
            case badDimensions(String)
            /// A flag name v4l2-ctl does not print.
            case unknownFlag(String)
            /// An integer-menu item that is not `index: value (0xhex)`.
            case badMenuItem
            /// A line in the control list that is neither a control, a menu item nor a heading.
            case unexpectedLine

            var description: String {
                switch self {
                case .badNumber(let field, let value): "\(field)=\(value) is not a number"
                case .missingField(let field): "missing \(field)="
                case .unknownField(let field): "unknown field '\(field)'"
                case .unknownType(let type): "unknown control type '(\(type))'"
                case .badDimensions(let text): "bad array dimensions '\(text)'"
                case .unknownFlag(let flag): "unknown flag '\(flag)'"
                case .badMenuItem: "integer menu item is not 'index: value (0xhex)'"
                case .unexpectedLine: "not a control, menu item or heading"
                }
            }
        }

        /// The 1-based line number.
        var line: Int
        /// The line's text.
        var text: String
        var reason: Reason

        var description: String { "line \(line): \(reason): \(text)" }
    }

    /// Parses the control list that `v4l2-ctl -l`, `-L` (`--list-ctrls-menus`) or `--all` prints.
    ///
    /// Understood: control lines with or without the hex id (`v4l2-ctl` before 1.14 printed
    /// none; such controls get id 0), every type word v4l2-ctl prints, `min/max/step/default/value`
    /// in decimal or hex, string values, array dimensions in both the `dims=[2][3]` and the older
    /// ` [2][3]` form, `flags=` lists (unknown bits as hex), menu and integer-menu items, class
    /// headings ("Camera Controls"), `error N getting ctrl …` notes (that control is skipped, as
    /// v4l2-ctl printed nothing else for it) and `#` comment lines. The `--all` report that
    /// precedes the first heading or control is skipped. After that, any other non-blank line
    /// is an error, reported with its line number; nothing is guessed.
    ///
    /// Fields v4l2-ctl does not print for a type take the values the kernel reports for it
    /// (bool: 0…1 step 1; menus: step 1), and `value` follows `V4L2ControlInfo.value`: nil for
    /// buttons, write-only, string and array controls.
    init(parsing text: String) throws(ParseError) {
        var parser = V4L2CtlParser()
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = line.last == "\r" ? line.dropLast() : line
            do throws(ParseError.Reason) {
                try parser.consume(line)
            } catch {
                throw ParseError(line: lineNumber, text: String(line), reason: error)
            }
        }
        self.init(parser.controls)
    }
}

/// The line-by-line state of `V4L2ControlTable(parsing:)`.
private struct V4L2CtlParser {
    typealias Reason = V4L2ControlTable.ParseError.Reason

    var controls: [V4L2ControlInfo] = []
    /// Whether a heading or a control has been seen (the `--all` preamble is over).
    private var inControlList = false
    /// Whether the last non-blank line was a menu control or one of its items.
    private var inMenu = false

    mutating func consume(_ line: Substring) throws(Reason) {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return }
        if inMenu, let item = try menuItem(line, trimmed: trimmed) {
            controls[controls.count - 1].menu.append(item)
            return
        }
        inMenu = false
        if let control = try control(trimmed) {
            controls.append(control)
            inControlList = true
            inMenu = control.type.isMenu
            return
        }
        if Self.isHeading(line) || trimmed.hasPrefix("error ") && trimmed.contains(" getting ") {
            inControlList = inControlList || Self.isHeading(line)
            return
        }
        if inControlList { throw .unexpectedLine }
    }

    /// "User Controls", "Camera Controls", "Vivid Controls": the kernel's class names, unindented.
    private static func isHeading(_ line: Substring) -> Bool {
        line.first.map { $0 != " " && $0 != "\t" } == true && line.hasSuffix(" Controls") && !line.contains(":")
    }

    /// A menu item: an indented "N: name" after a menu control.
    private func menuItem(_ line: Substring, trimmed: Substring) throws(Reason) -> V4L2ControlInfo.MenuItem? {
        guard line.first == "\t" || line.first == " ", let colon = trimmed.firstIndex(of: ":"),
              let index = Int64(trimmed[..<colon]) else { return nil }
        var rest = trimmed[trimmed.index(after: colon)...]
        if rest.first == " " { rest = rest.dropFirst() }
        guard controls.last?.type == .intMenu else { return .init(index: index, name: String(rest)) }
        // "4: 5 (0x5)": the value in decimal, then in hex (as its unsigned bit pattern)
        let parts = rest.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let value = Int64(parts[0]), parts[1].hasPrefix("(0x"), parts[1].hasSuffix(")"),
              UInt64(parts[1].dropFirst(3).dropLast(), radix: 16) == UInt64(bitPattern: value)
        else { throw .badMenuItem }
        return .init(index: index, name: String(value), value: value)
    }

    /// A control line: `name [0xID] (type) : fields`. Nil when the line does not have that shape.
    private func control(_ trimmed: Substring) throws(Reason) -> V4L2ControlInfo? {
        // name
        guard let nameEnd = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return nil }
        let name = trimmed[..<nameEnd]
        var rest = trimmed[nameEnd...].drop { $0 == " " || $0 == "\t" }
        // optional id
        var id: UInt32 = 0
        if rest.hasPrefix("0x") {
            let end = rest.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? rest.endIndex
            let token = rest[..<end]
            guard let parsed = UInt32(token.dropFirst(2), radix: 16) else {
                // Only a control line can have "0x…" here; "(type)" must follow for it to be one.
                guard rest[end...].drop(while: { $0 == " " }).hasPrefix("(") else { return nil }
                throw .badNumber(field: "id", value: String(token))
            }
            id = parsed
            rest = rest[end...].drop { $0 == " " || $0 == "\t" }
        }
        // (type) then ':'
        guard rest.first == "(", let close = rest.firstIndex(of: ")") else { return nil }
        let typeWord = rest[rest.index(after: rest.startIndex)..<close]
        rest = rest[rest.index(after: close)...].drop { $0 == " " }
        guard rest.first == ":" else { return nil }
        rest = rest.dropFirst()
        guard typeWord.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { return nil }

        let fields = try Self.fields(rest)
        var type = try Self.type(typeWord)
        if case .other = type, typeWord == "unknown" { type = try Self.unknownType(fields) }
        return try Self.makeControl(name: String(name), id: id, type: type, fields: fields)
    }

    private struct Fields {
        var values: [String: Substring] = [:]
        var dimensions: Substring?
        var flags: Substring?
    }

    /// Splits ` min=0 max=255 … value=3 (Aperture Priority Mode) dims=[2][3] flags=a, b`.
    private static func fields(_ text: Substring) throws(Reason) -> Fields {
        var fields = Fields()
        var rest = text
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { break }
            if rest.hasPrefix("flags=") {
                fields.flags = rest.dropFirst("flags=".count)
                break
            }
            if rest.first == "[" { // the older form of array dimensions
                let end = rest.firstIndex(of: " ") ?? rest.endIndex
                fields.dimensions = rest[..<end]
                rest = rest[end...]
                continue
            }
            guard let equals = rest.firstIndex(of: "=") else {
                throw .unknownField(String(rest.prefix { $0 != " " }))
            }
            let key = String(rest[..<equals])
            guard !key.contains(" ") else { throw .unknownField(String(key.prefix { $0 != " " })) }
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            if rest.first == "'" { // a string value: up to the last quote before flags= or the end
                let limit = rest.firstRange(of: " flags=")?.lowerBound ?? rest.endIndex
                guard let quote = rest[..<limit].lastIndex(of: "'"), quote > rest.startIndex else {
                    throw .badNumber(field: key, value: String(rest[..<limit]))
                }
                value = rest[rest.index(after: rest.startIndex)..<quote]
                rest = rest[rest.index(after: quote)...]
            } else {
                let end = rest.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? rest.endIndex
                value = rest[..<end]
                rest = rest[end...]
            }
            switch key {
            case "min", "max", "step", "default", "value", "type": fields.values[key] = value
            case "dims": fields.dimensions = value
            case "elems": break // a dynamic array's current length (v4l2-ctl 1.24 and later)
            default: throw .unknownField(key)
            }
            if key == "value" { // a menu's current item follows in parentheses: "(60 Hz)", "(5 0x5)"
                let afterSpaces = rest.drop { $0 == " " }
                if afterSpaces.first == "(", let close = matchingParenthesis(afterSpaces) {
                    rest = afterSpaces[afterSpaces.index(after: close)...]
                }
            }
        }
        return fields
    }

    private static func matchingParenthesis(_ text: Substring) -> Substring.Index? {
        var depth = 0
        for index in text.indices {
            if text[index] == "(" { depth += 1 }
            if text[index] == ")" {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// The type words v4l2-ctl 1.14–1.26 prints, with the kernel's type numbers.
    private static let typeWords: [String: V4L2ControlInfo.ControlType] = [
        "int": .int, "bool": .bool, "menu": .menu, "intmenu": .intMenu, "button": .button, "int64": .integer64,
        "str": .string, "bitmask": .bitmask,
        "u8": .other(0x100), "u16": .other(0x101), "u32": .other(0x102), "area": .other(0x106),
        "hdr10-cll-info": .other(0x110), "hdr10-mastering-info": .other(0x111),
        "rect": .other(0x107), "s32": .other(0x103), "s16": .other(0x104), "s8": .other(0x105),
        "unknown": .other(0),
    ]

    private static func type(_ word: Substring) throws(Reason) -> V4L2ControlInfo.ControlType {
        guard let type = typeWords[String(word)] else { throw .unknownType(String(word)) }
        return type
    }

    /// `(unknown): type=10c`: the number is in hex.
    private static func unknownType(_ fields: Fields) throws(Reason) -> V4L2ControlInfo.ControlType {
        guard let text = fields.values["type"] else { throw .missingField("type") }
        guard let raw = UInt32(text.hasPrefix("0x") ? text.dropFirst(2) : text, radix: 16) else {
            throw .badNumber(field: "type", value: String(text))
        }
        return .init(rawValue: raw)
    }

    private static func number(_ fields: Fields, _ key: String) throws(Reason) -> Int64? {
        guard let text = fields.values[key] else { return nil }
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            // Hex is how v4l2-ctl prints bitmasks: an unsigned bit pattern.
            guard let value = UInt64(text.dropFirst(2), radix: 16) else { throw .badNumber(field: key, value: String(text)) }
            return Int64(bitPattern: value)
        }
        guard let value = Int64(text) else { throw .badNumber(field: key, value: String(text)) }
        return value
    }

    private static func required(_ fields: Fields, _ key: String) throws(Reason) -> Int64 {
        guard let value = try number(fields, key) else { throw .missingField(key) }
        return value
    }

    private static func flags(_ text: Substring?) throws(Reason) -> V4L2ControlInfo.Flags {
        guard let text else { return [] }
        var flags: V4L2ControlInfo.Flags = []
        for word in text.split(separator: ",").map({ $0.trimmingSpaces() }) where !word.isEmpty {
            if let known = V4L2ControlInfo.Flags.names.first(where: { $0.name == word }) {
                flags.insert(known.flag)
            } else if word.hasPrefix("0x"), let bits = UInt32(word.dropFirst(2), radix: 16) {
                flags.insert(.init(rawValue: bits)) // a flag newer than the v4l2-ctl that printed it
            } else {
                throw .unknownFlag(String(word))
            }
        }
        return flags
    }

    private static func dimensions(_ text: Substring?) throws(Reason) -> [Int] {
        guard let text else { return [] }
        guard text.first == "[", text.last == "]" else { throw .badDimensions(String(text)) }
        var result: [Int] = []
        for part in text.dropFirst().dropLast().split(separator: "][", omittingEmptySubsequences: false) {
            guard let n = Int(part), n > 0 else { throw .badDimensions(String(text)) }
            result.append(n)
        }
        return result
    }

    private static func makeControl(name: String, id: UInt32, type: V4L2ControlInfo.ControlType, fields: Fields) throws(Reason) -> V4L2ControlInfo {
        let flags = try flags(fields.flags)
        let dimensions = try dimensions(fields.dimensions)
        var control = V4L2ControlInfo(id: id, name: name, type: type, flags: flags, dimensions: dimensions)
        switch type {
        case .int, .integer64, .other(0x100), .other(0x101), .other(0x102):
            control.minimum = try required(fields, "min")
            control.maximum = try required(fields, "max")
            control.step = try required(fields, "step")
            control.defaultValue = try required(fields, "default")
        case .bool:
            control.maximum = 1
            control.step = 1
            control.defaultValue = try required(fields, "default")
        case .menu, .intMenu:
            control.minimum = try required(fields, "min")
            control.maximum = try required(fields, "max")
            control.step = 1
            control.defaultValue = try required(fields, "default")
        case .bitmask:
            control.maximum = Self.unsigned32(try required(fields, "max"))
            control.defaultValue = Self.unsigned32(try required(fields, "default"))
        case .string:
            control.minimum = try required(fields, "min")
            control.maximum = try required(fields, "max")
            control.step = try required(fields, "step")
        case .button, .ctrlClass, .other:
            // Compound types print no range; take whatever is there.
            control.minimum = try number(fields, "min") ?? 0
            control.maximum = try number(fields, "max") ?? 0
            control.step = try number(fields, "step") ?? 0
            control.defaultValue = try number(fields, "default") ?? 0
        }
        let readable: Bool = switch type {
        case .int, .bool, .menu, .intMenu, .integer64, .bitmask: true
        default: false
        }
        if readable, dimensions.isEmpty, flags.isDisjoint(with: [.writeOnly, .hasPayload]), let value = try number(fields, "value") {
            control.value = type == .bitmask ? Self.unsigned32(value) : value
        }
        return control
    }

    /// A bitmask printed as a signed or unsigned 32-bit number, as its unsigned bit pattern.
    private static func unsigned32(_ value: Int64) -> Int64 { Int64(UInt32(truncatingIfNeeded: value)) }
}

private extension Substring {
    func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
