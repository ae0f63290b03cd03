import Foundation

extension MachineReadableCodeObject {
    /// One line of JSON, as `capture scan --json` prints and pipeline files write:
    /// `{"type","value","corners","bounds","time","duration","source"}`, positions normalised
    /// (corners as [x, y] pairs, bounds as [x, y, width, height]), times in seconds.
    public func jsonLine(source: String) -> String {
        func number(_ value: Double) -> String { String(format: "%.4f", value) }
        func string(_ text: String) -> String {
            let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
            return data.flatMap { String(data: $0, encoding: .utf8) }.map { String($0.dropFirst().dropLast()) } ?? "\"\""
        }
        let points = corners.map { "[\(number($0.x)),\(number($0.y))]" }.joined(separator: ",")
        let box = [bounds.minX, bounds.minY, bounds.width, bounds.height].map(number).joined(separator: ",")
        return "{\"type\":\(string(type.name)),\"value\":\(string(stringValue ?? "")),\"corners\":[\(points)],"
            + "\"bounds\":[\(box)],\"time\":\(number(time.seconds)),\"duration\":\(number(duration.seconds)),"
            + "\"source\":\(string(source))}"
    }
}
