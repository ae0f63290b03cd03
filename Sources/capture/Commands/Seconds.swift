import ArgumentParser
import Foundation

/// A number of seconds on the command line (`--duration 2.5`, `--fragment 0`): decimal digits
/// with an optional fraction and exponent (`2`, `1.5`, `.5`, `3e2`), finite, and at most
/// ``maximum``. Hexadecimal (`0x10`), `inf` and `nan`, which `Double(_:)` takes, are refused.
///
/// The seconds options of record, stream, serve, preview and devices parse with these
/// (`@Option(transform:)`), so that each says the same about the same mistake.
enum Seconds {
    /// The longest any seconds option may ask for: 365 days.
    static let maximum: Double = 365 * 24 * 3600

    /// Seconds above 0, up to ``maximum``.
    static func positive(_ text: String) throws(ValidationError) -> Double {
        try parse(text, allowingZero: false)
    }

    /// Seconds from 0 (which the option gives a meaning of its own), up to ``maximum``.
    static func zeroOrMore(_ text: String) throws(ValidationError) -> Double {
        try parse(text, allowingZero: true)
    }

    private static func parse(_ text: String, allowingZero: Bool) throws(ValidationError) -> Double {
        let range = allowingZero ? "from 0 to \(Int(maximum)) (365 days)" : "greater than 0, at most \(Int(maximum)) (365 days)"
        guard text.wholeMatch(of: /[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?/) != nil, let value = Double(text) else {
            throw ValidationError("'\(text)' is not a number of seconds: write decimal digits, e.g. 2 or 1.5, \(range)")
        }
        if value > maximum {
            throw ValidationError("\(text) s is too long: a number of seconds \(range)")
        }
        if allowingZero ? value < 0 : value <= 0 {
            throw ValidationError("\(text) s is too short: a number of seconds \(range)")
        }
        return value
    }
}
