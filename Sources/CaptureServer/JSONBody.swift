import Foundation
import Hummingbird

/// A request's JSON body, read by hand so that every mistake is a 400 naming what is wrong:
/// not JSON (and where), not an object, an unknown key (and the keys there are), a value of
/// the wrong type.
struct JSONBody: Sendable {
    /// A JSON value as ``JSONParser`` parsed it.
    enum Value: Sendable, Equatable {
        case null, bool(Bool), number(Double), string(String), array([Value]), object([String: Value])

        /// The value as JSON text, for messages (cut at 80 characters).
        var text: String {
            let full: String
            switch self {
            case .null: full = "null"
            case .bool(let value): full = "\(value)"
            case .number(let value): full = value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
            case .string(let value): full = "\"\(value)\""
            case .array(let values): full = "[" + values.map(\.text).joined(separator: ",") + "]"
            case .object(let fields): full = "{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value.text)" }.joined(separator: ",") + "}"
            }
            return full.count > 80 ? String(full.prefix(77)) + "…" : full
        }
    }

    /// The largest body taken.
    static let maxSize = 64 * 1024

    let fields: [String: Value]

    /// Reads the body as a JSON object whose keys are among `keys`. An empty body is an empty
    /// object.
    init(_ request: Request, keys: [String]) async throws {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: Self.maxSize)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, code: "bodyTooLarge", message: "the body is over \(Self.maxSize) bytes; valid: \(keys.isEmpty ? "no body, or {}" : "a JSON object with any of " + keys.joined(separator: ", "))")
        }
        try self.init(Data(buffer: buffer), keys: keys)
    }

    init(_ data: Data, keys: [String]) throws(APIError) {
        let expected = keys.isEmpty ? "no body, or {}" : "a JSON object with any of " + keys.joined(separator: ", ")
        guard !data.allSatisfy({ [0x20, 0x0a, 0x0d, 0x09].contains($0) }) else {
            fields = [:]
            return
        }
        let value: Value
        do {
            value = try JSONParser.parse(data)
        } catch {
            throw .badRequest("malformedJSON", "the body is not JSON: \(error.message); expected \(expected)")
        }
        guard case .object(let fields) = value else {
            throw .badRequest("malformedJSON", "the body is \(value.text), not an object; expected \(expected)")
        }
        if let unknown = fields.keys.sorted().first(where: { !keys.contains($0) }) {
            throw .badRequest("unknownKey", "unknown key \"\(unknown)\"; valid: \(keys.isEmpty ? "no keys (this request takes no body, or {})" : keys.joined(separator: ", "))")
        }
        self.fields = fields
    }

    /// The number at `key`, finite; nil when absent.
    func number(_ key: String, valid: String) throws(APIError) -> Double? {
        switch fields[key] {
        case nil: return nil
        case .number(let value)? where value.isFinite: return value
        case let other?: throw .badRequest("invalidValue", "\(key) \(other.text) is not a number; valid: \(valid)")
        }
    }

    /// The string at `key`; nil when absent.
    func string(_ key: String, valid: String) throws(APIError) -> String? {
        switch fields[key] {
        case nil: return nil
        case .string(let value)?: return value
        case let other?: throw .badRequest("invalidValue", "\(key) \(other.text) is not a string; valid: \(valid)")
        }
    }

    /// The point `{"x": …, "y": …}` at `key`, each in 0…1; nil when absent.
    func point(_ key: String) throws(APIError) -> CGPoint? {
        guard let value = fields[key] else { return nil }
        let valid = "{\"x\": 0…1, \"y\": 0…1} in device coordinates"
        guard case .object(let point) = value, Set(point.keys) == ["x", "y"],
              case .number(let x)? = point["x"], case .number(let y)? = point["y"] else {
            throw .badRequest("invalidValue", "\(key) \(value.text) is not a point; valid: \(valid)")
        }
        guard (0...1).contains(x), (0...1).contains(y) else {
            throw .badRequest("outOfRange", "\(key) \(value.text) is outside the picture; valid: \(valid)")
        }
        return CGPoint(x: x, y: y)
    }
}
