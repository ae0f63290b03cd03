import Foundation

/// A size in bytes as people write it: `300000`, `50M`, `1.5G`, `512Ki`. K, M and G are powers
/// of 1000, Ki, Mi and Gi powers of 1024; a trailing B is allowed (`50MB`, `512KiB`).
///
/// Pipeline files' `maxSize` and `capture record --max-size` read sizes this way.
public struct ByteCount: Sendable, Hashable, CustomStringConvertible {
    /// The number of bytes, at least 1.
    public var bytes: Int64

    /// A count of `bytes`.
    public init(bytes: Int64) {
        self.bytes = bytes
    }

    /// Reads `text`; nil unless it is a positive number with an optional suffix.
    public init?(_ text: String) {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if rest.last == "B" || rest.last == "b" { rest = rest.dropLast() }
        let binary = rest.last == "i"
        if binary { rest = rest.dropLast() }
        let base: Double = binary ? 1024 : 1000
        let power: Double = switch rest.last?.uppercased() {
        case "K": 1
        case "M": 2
        case "G": 3
        case "T": 4
        default: 0
        }
        if power > 0 { rest = rest.dropLast() }
        guard binary == false || power > 0, let value = Double(rest), value.isFinite, value > 0 else { return nil }
        let total = (value * Foundation.pow(base, power)).rounded()
        guard total >= 1, total < 9.2e18 else { return nil }
        bytes = Int64(total)
    }

    /// What sizes look like, for messages.
    public static let expected = "a number of bytes, or with K, M, G (powers of 1000) or Ki, Mi, Gi (powers of 1024), e.g. 50M"

    /// `1_234_567` → `1.2 MB` (powers of 1000); below 1000, `999 B`.
    public var description: String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(bytes), unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f ", value) + units[unit]
    }
}
