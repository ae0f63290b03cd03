import Foundation

/// JSON text pieces shared by the objects' lines.
enum JSONText {
    static func number(_ value: Double) -> String { String(format: "%.4f", value) }

    static func string(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        return data.flatMap { String(data: $0, encoding: .utf8) }.map { String($0.dropFirst().dropLast()) } ?? "\"\""
    }

    static func rect(_ rect: CGRect) -> String {
        "[" + [rect.minX, rect.minY, rect.width, rect.height].map(number).joined(separator: ",") + "]"
    }
}

extension FaceObject {
    /// One line of JSON: `{"type":"face","value":"ID","faceID","bounds","roll","yaw","time","duration","source"}`
    /// (roll and yaw null where not measured).
    public func jsonLine(source: String) -> String {
        "{\"type\":\"face\",\"value\":\"\(faceID)\",\"faceID\":\(faceID),\"bounds\":\(JSONText.rect(bounds)),"
            + "\"roll\":\(rollAngle.map(JSONText.number) ?? "null"),\"yaw\":\(yawAngle.map(JSONText.number) ?? "null"),"
            + "\"time\":\(JSONText.number(time.seconds)),\"duration\":\(JSONText.number(duration.seconds)),\"source\":\(JSONText.string(source))}"
    }
}

extension MachineReadableCodeObject {
    /// One line of JSON, as `capture scan --json` prints and pipeline files write:
    /// `{"type","value","corners","bounds","time","duration","source"}`, positions normalised
    /// (corners as [x, y] pairs, bounds as [x, y, width, height]), times in seconds.
    public func jsonLine(source: String) -> String {
        let points = corners.map { "[\(JSONText.number($0.x)),\(JSONText.number($0.y))]" }.joined(separator: ",")
        return "{\"type\":\(JSONText.string(type.name)),\"value\":\(JSONText.string(stringValue ?? "")),\"corners\":[\(points)],"
            + "\"bounds\":\(JSONText.rect(bounds)),\"time\":\(JSONText.number(time.seconds)),\"duration\":\(JSONText.number(duration.seconds)),"
            + "\"source\":\(JSONText.string(source))}"
    }
}
