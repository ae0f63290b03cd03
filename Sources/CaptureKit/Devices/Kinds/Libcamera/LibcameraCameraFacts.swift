import Foundation
import Synchronization

/// What one libcamera camera supports, as libcamera's `cam` tool lists it
/// (`cam -c ID --list-controls --list-properties`): its controls with their ranges and
/// enumerated values, and its properties (Location, Model, …).
///
/// Read by a separate process because libcamera allows one camera manager per process, and
/// libcamera's GStreamer element keeps its own in ours. `libcamerasrc`'s properties say what the
/// element can carry; these say what the camera does with it: a control the camera lacks is
/// dropped by the element with a warning, so a capability needs both.
struct LibcameraCameraFacts: Sendable, Equatable {
    /// A control's limits as `cam` prints them ("[0..66666]", "[false..true]"), and for an
    /// enumerated control the names of its values ("AfModeManual", …; libcamera 0.4 lists them).
    struct Control: Sendable, Equatable {
        var minimum: String
        var maximum: String
        var values: [String] = []

        var range: ClosedRange<Double>? {
            guard let low = Double(minimum), let high = Double(maximum), low <= high else { return nil }
            return low...high
        }
    }

    var controls: [String: Control]
    var properties: [String: String]

    /// Parses `cam`'s listing: "Control: AeEnable: [false..true]" (0.0.3), "Control: [inout]
    /// libcamera::ExposureTime: [1..66666]" (0.4) with an enumerated control's values on the
    /// lines after it ("  - AfModeManual (0)"), and "Property: Location = 2".
    init(listing: String) {
        var controls: [String: Control] = [:]
        var properties: [String: String] = [:]
        var enumerated: String?
        for line in listing.split(separator: "\n").map(String.init) {
            if line.hasPrefix("  - "), let name = enumerated {
                let value = line.dropFirst(4).split(separator: " ").first.map(String.init) ?? ""
                controls[name]?.values.append(value)
                continue
            }
            enumerated = nil
            if line.hasPrefix("Property: "), let equals = line.range(of: " = ") {
                properties[String(line[line.index(line.startIndex, offsetBy: 10)..<equals.lowerBound])] = String(line[equals.upperBound...])
            } else if line.hasPrefix("Control: ") {
                var rest = line.dropFirst(9)
                if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") { rest = rest[rest.index(after: close)...].drop { $0 == " " } }
                // "libcamera::ExposureTime: [1..66666]", or "libcamera::AfMode:" before its values.
                let separator = rest.range(of: ": ") ?? (rest.hasSuffix(":") ? rest.index(before: rest.endIndex)..<rest.endIndex : nil)
                guard let separator else { continue }
                var name = String(rest[..<separator.lowerBound])
                if let scope = name.range(of: "::") { name = String(name[scope.upperBound...]) }
                let limits = rest[separator.upperBound...].trimmingCharacters(in: .whitespaces)
                if limits.hasPrefix("["), limits.hasSuffix("]"), let dots = limits.range(of: "..") {
                    controls[name] = Control(minimum: String(limits[limits.index(after: limits.startIndex)..<dots.lowerBound]),
                                             maximum: String(limits[dots.upperBound..<limits.index(before: limits.endIndex)]))
                } else {
                    controls[name] = Control(minimum: "", maximum: "")
                    enumerated = name
                }
            }
        }
        self.controls = controls
        self.properties = properties
    }

    /// Whether the camera has `control`, and for an enumerated one with listed values, `value`
    /// among them (0.0.3 lists no values: the range is all it says).
    func has(_ control: String, value: String? = nil) -> Bool {
        guard let found = controls[control] else { return false }
        guard let value, !found.values.isEmpty else { return true }
        return found.values.contains(value)
    }

    /// libcamera's Location property: 0 front, 1 back, 2 external.
    var location: Int? { properties["Location"].flatMap { Int($0) } }
    /// The sensor model ("imx708").
    var model: String? { properties["Model"].map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) } }

    /// The facts of camera `id`, read once per process by `cam` (nil when `cam` is missing, the
    /// camera is busy, or `cam` takes longer than `deadline`).
    static func read(cameraID id: String, deadline: Duration = .seconds(3)) -> LibcameraCameraFacts? {
        if let known = cache.withLock({ $0[id] }) { return known }
        let facts = run(cameraID: id, deadline: deadline).map(LibcameraCameraFacts.init(listing:))
        if let facts { cache.withLock { $0[id] = facts } }
        return facts
    }

    private static let cache = Mutex<[String: LibcameraCameraFacts]>([:])

    private static func run(cameraID id: String, deadline: Duration) -> String? {
        guard let cam = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
            .map({ "\($0)/cam" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cam)
        process.arguments = ["-c", id, "--list-controls", "--list-properties"]
        var environment = ProcessInfo.processInfo.environment
        environment["LIBCAMERA_LOG_LEVELS"] = environment["LIBCAMERA_LOG_LEVELS"] ?? "*:ERROR"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let timer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(deadline.components.seconds * 1000)), execute: timer)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
